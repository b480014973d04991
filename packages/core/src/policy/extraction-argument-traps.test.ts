import { describe, expect, it } from 'vitest';
import { commandTool } from '../dispatch/test-support/stub-tools.js';
import { enforcePolicy } from '../dispatch/enforce-policy.js';
import type { ToolPolicy } from '../dispatch-context.js';
import { ToolPolicyError } from '../errors.js';
import { findArgumentTrap } from './argument-traps.js';

const sandboxed = { processSandbox: 'required' } as const;

// Each writes the paths its archive or patch names: with no sandbox, nothing bounds them.
const WRITING: readonly (readonly [string, readonly string[]])[] = [
  ['tar -x', ['tar', '-xf', 'a.tar']],
  ['tar x bundle', ['tar', 'xzf', 'a.tgz']],
  ['tar --extract', ['tar', '--extract', '--file=a.tar']],
  ['tar abbreviated --extr', ['tar', '--extr', '-f', 'a.tar']],
  ['tar --get', ['tar', '--get', '-f', 'a.tar']],
  ['tar -x in a later cluster', ['tar', '-v', '-zxf', 'a.tgz']],
  ['bsdtar -x', ['bsdtar', '-xf', 'a.tar']],
  ['unzip', ['unzip', 'a.zip']],
  ['unzip -o -d', ['unzip', '-o', 'a.zip', '-d', 'out']],
  ['unzip -d joined with list-like letters', ['unzip', '-dclean', 'a.zip']],
  ['git apply', ['git', 'apply', 'p.diff']],
  ['git apply --index', ['git', 'apply', '--index', 'p.diff']],
  ['git apply --check --apply', ['git', 'apply', '--check', '--apply', 'p.diff']],
  ['git am', ['git', 'am', 'mbox']],
  ['patch', ['patch', '-p1', '-i', 'p.diff']],
  ['cp -r', ['cp', '-r', 'a', 'b']],
  ['cp -a in a cluster', ['cp', '-va', 'a', 'b']],
  ['cp --recursive', ['cp', '--recursive', 'a', 'b']],
  ['cp abbreviated --arch', ['cp', '--arch', 'a', 'b']],
  ['rsync -a', ['rsync', '-av', 'a/', 'b/']],
  ['cpio -i', ['cpio', '-idv']],
  ['cpio --extract', ['cpio', '--extract']],
  ['ar x', ['ar', 'x', 'lib.a']],
  ['jar -xf', ['jar', '-xf', 'a.jar']],
  ['7z x', ['7z', 'x', 'a.7z']],
  ['unsquashfs', ['unsquashfs', 'a.sqfs']],
];

// Same tools in modes that only list, test or print, and cases where a value looks like a mode.
const READING: readonly (readonly [string, readonly string[]])[] = [
  ['tar -c', ['tar', '-czf', 'out.tgz', 'src']],
  ['tar -t', ['tar', '-tvf', 'a.tar']],
  ['tar t bundle', ['tar', 'tzf', 'a.tgz']],
  ['tar -x to stdout', ['tar', '-xOf', 'a.tar']],
  ['tar --extract --to-stdout', ['tar', '--extract', '--to-stdout', '-f', 'a.tar']],
  ['tar -C value that is an x', ['tar', '-C', 'x', '-cf', 'a.tar', 'src']],
  ['tar -f value with an x', ['tar', '-cf', 'x.tar', 'src']],
  ['unzip -l', ['unzip', '-l', 'a.zip']],
  ['unzip -t', ['unzip', '-tq', 'a.zip']],
  ['unzip -p', ['unzip', '-p', 'a.zip', 'f']],
  ['git apply --stat', ['git', 'apply', '--stat', 'p.diff']],
  ['git apply --check', ['git', 'apply', '--check', 'p.diff']],
  ['git log (not a patching command)', ['git', 'log', '--oneline']],
  ['patch --dry-run', ['patch', '--dry-run', '-p1', '-i', 'p.diff']],
  ['cp of one file', ['cp', 'a', 'b']],
  ['cp -t value r', ['cp', '-t', 'r', 'a']],
  ['cp --reflink (not --recursive)', ['cp', '--reflink=auto', 'a', 'b']],
  ['rsync of one file', ['rsync', '-v', 'a', 'b']],
  ['cpio -o', ['cpio', '-o', '-H', 'newc']],
  ['ar rcs', ['ar', 'rcs', 'lib.a', 'x.o']],
  ['jar tf', ['jar', 'tf', 'a.jar']],
];

describe('the unsandboxed extraction floor', () => {
  it.each(WRITING)('refuses %s when the sandbox is off or unknown', (_case, argv) => {
    expect(findArgumentTrap(argv)).toMatch(/^unsandboxed-extract:/);
    expect(findArgumentTrap(argv, { processSandbox: 'off' })).toMatch(/^unsandboxed-extract:/);
  });

  it.each(WRITING)('leaves %s to the sandbox when it is required', (_case, argv) => {
    expect(findArgumentTrap(argv, sandboxed)).toBeUndefined();
  });

  it.each(READING)('passes %s without a sandbox', (_case, argv) => {
    expect(findArgumentTrap(argv)).toBeUndefined();
  });

  it('names the binary trap first, so it holds (and explain names it) in either mode', () => {
    const argv = ['tar', '-xf', 'a.tar', '--to-command=sh'];
    expect(findArgumentTrap(argv)).toBe('tar:--to-command');
    expect(findArgumentTrap(argv, sandboxed)).toBe('tar:--to-command');
  });

  it('keeps path-safety switches a trap even inside the sandbox', () => {
    expect(findArgumentTrap(['git', 'apply', '--unsafe-paths', 'p.diff'], sandboxed)).toBe(
      'git:--unsafe-paths',
    );
    expect(findArgumentTrap(['unzip', '-:', 'a.zip'], sandboxed)).toBe('unzip:-:');
    expect(findArgumentTrap(['7z', 'x', '-spf', 'a.7z'], sandboxed)).toBe('7z:-spf');
    expect(findArgumentTrap(['patch', '--follow-sym', '-i', 'p'], sandboxed)).toBe(
      'patch:--follow-symlinks',
    );
    expect(findArgumentTrap(['bsdtar', '--insecure', '-xf', 'a.tar'], sandboxed)).toBe(
      'tar:--insecure',
    );
  });
});

describe('enforcePolicy and the process sandbox signal', () => {
  const tool = commandTool().tool;
  const target = { command: 'tar -xf a.tar', argv: ['tar', '-xf', 'a.tar'] };
  const judge = (toolPolicy: ToolPolicy) => () =>
    enforcePolicy(tool, target, { toolPolicy, gateApproved: false, grantedToolIds: new Set() });

  it('refuses a glob-allowed extraction when the policy does not say the sandbox is on', () => {
    expect(judge({ allowedCommandGlobs: ['tar *'] })).toThrow(ToolPolicyError);
    expect(judge({ allowedCommandGlobs: ['tar *'], processSandbox: 'off' })).toThrow(
      ToolPolicyError,
    );
  });

  it('allows it through the glob under a required sandbox', () => {
    expect(judge({ allowedCommandGlobs: ['tar *'], processSandbox: 'required' })).not.toThrow();
  });

  it('still allows an exact entry without a sandbox (the author chose it)', () => {
    expect(judge({ allowedCommands: ['tar -xf a.tar'] })).not.toThrow();
  });
});
