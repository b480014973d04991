import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findGitTrap } from './git-argument-traps.js';

describe('git config: reads and writes as git parses them', () => {
  it.each([
    ['a --get after the operands', ['config', 'alias.st', '!touch x', '--get']],
    ['a --list after the operands', ['config', 'core.pager', 'sh', '--list']],
    ['a -l after the operands', ['config', 'core.pager', 'sh', '-l']],
    ['--get as the value of --file', ['config', '--file', '--get', 'core.pager', 'sh']],
    ['--get joined with a value', ['config', '--get=x', 'core.pager', 'sh']],
    ['--edit beside --get', ['config', '--edit', '--get', 'x.y']],
    ['an unknown option beside --get', ['config', '--replace-all', '--get', 'x.y', 'z']],
    ['a cluster with an unknown letter', ['config', '-le', 'x.y']],
    ['the set subcommand', ['config', 'set', 'core.pager', 'sh']],
    ['--get after the end of options', ['config', '--', 'core.pager', '--get']],
  ])('refuses %s', (_case, args) => {
    expect(findGitTrap(args)).toBe('git:config-write');
  });

  it.each([
    ['--get', ['config', '--get', 'user.name']],
    ['--get-regexp with a scope', ['config', '--global', '--get-regexp', '^alias\\.']],
    ['--file value then --get', ['config', '--file', '.gitmodules', '--get', 'submodule.a.url']],
    ['-f joined then --get', ['config', '-f.gitmodules', '--get-all', 'submodule.a.url']],
    ['-l', ['config', '-l']],
    ['a -zl cluster', ['config', '-zl']],
    ['--list --show-origin', ['config', '--list', '--show-origin']],
    ['--type=bool --get', ['config', '--type=bool', '--get', 'core.bare']],
    ['the get subcommand', ['config', 'get', 'user.name']],
    ['the list subcommand', ['config', 'list']],
  ])('passes %s', (_case, args) => {
    expect(findGitTrap(args)).toBeUndefined();
  });

  // The floor's model of git, checked against git itself: an option after the first operand is
  // not an option, so this call writes.
  const repo = mkdtempSync(path.join(tmpdir(), 'toolhost-git-config-'));
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it('matches real git: `git config k v --get` writes k', () => {
    execFileSync('git', ['init', '-q', repo]);
    execFileSync('git', ['-C', repo, 'config', 'probe.key', 'written', '--get']);
    const value = execFileSync('git', ['-C', repo, 'config', '--get', 'probe.key'], {
      encoding: 'utf8',
    });
    expect(value.trim()).toBe('written');
    expect(findGitTrap(['config', 'probe.key', 'written', '--get'])).toBe('git:config-write');
  });
});
