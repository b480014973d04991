import { readdirSync } from 'node:fs';
import { link, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolPolicyError } from '@toolhost/core';
import { ToolExecutionError } from '@toolhost/core';
import { createSandbox, snapshotTree } from './test-support/sandbox.js';
import type { Sandbox } from './test-support/sandbox.js';

// One tree for the whole table; every case is read-only on it or asserts nothing changed.
let box: Sandbox;
let outsideBefore: Record<string, string>;

beforeAll(async () => {
  box = await createSandbox({}, async ({ sandbox, root, outside }) => {
    const file = async (relative: string, content = 'hello'): Promise<void> => {
      await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
      await writeFile(path.join(root, relative), content);
    };
    await writeFile(path.join(outside, 'secret.txt'), 'OUTSIDE-SECRET');
    await writeFile(path.join(outside, 'hard-secret.txt'), 'OUTSIDE-SECRET');
    await mkdir(path.join(sandbox, 'app-evil'));
    await writeFile(path.join(sandbox, 'app-evil', 'secret.txt'), 'OUTSIDE-SECRET');
    await file('src/index.ts');
    for (const name of [
      '.ENV',
      '.env.local',
      '.Git/config',
      '.ssh/id_ed25519',
      'keys/id_rsa',
      'keys/id_rsa.pub',
    ])
      await file(name, name.endsWith('.pub') ? 'ssh-ed25519 AAAA' : 'FAKE-SECRET');
    for (const name of [
      '.env.',
      '.env ',
      '.env::$DATA',
      '.env:x',
      '.\uff45\uff4e\uff56',
      '.e\u200cnv',
      '.\u0435nv',
    ])
      await file(name, name === '.\u0435nv' ? 'look-alike' : 'FAKE-SECRET');
    await symlink('src/index.ts', path.join(root, 'inner.txt'));
    await symlink(outside, path.join(root, 'linkdir'));
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
    await symlink(path.join(outside, 'new.txt'), path.join(root, 'dangling'));
    await symlink('loop2', path.join(root, 'loop1'));
    await symlink('loop1', path.join(root, 'loop2'));
    await symlink('..', path.join(root, 'up'));
    await link(path.join(outside, 'hard-secret.txt'), path.join(root, 'hard.txt'));
  });
  outsideBefore = await snapshotTree(box.sandbox, [box.root, box.stateDir]);
});

afterAll(async () => {
  expect(await snapshotTree(box.sandbox, [box.root, box.stateDir])).toEqual(outsideBefore);
  await box.close();
});

type Case = readonly [label: string, path: (box: Sandbox) => string, reason: string];

const deniedReads: readonly Case[] = [
  ['a ../ chain', () => '../../../../etc/passwd', 'scope_escape'],
  ['a ../ chain after a real directory', () => 'src/../../outside/secret.txt', 'scope_escape'],
  ['an absolute escape', () => '/etc/passwd', 'scope_escape'],
  ['a /root-evil prefix collision', (b) => `${b.root}-evil/secret.txt`, 'scope_escape'],
  ['a symlinked file out of the root', () => 'link.txt', 'symlink_refused'],
  ['a symlinked directory component', () => 'linkdir/secret.txt', 'symlink_refused'],
  ['a symlink to the parent', () => 'up/outside/secret.txt', 'symlink_refused'],
  ['a symlink loop', () => 'loop1', 'symlink_refused'],
  ['a hard link to an outside file', () => 'hard.txt', 'hard_link_refused'],
  ['.ENV', () => '.ENV', 'protected_path'],
  ['.env.local', () => '.env.local', 'protected_path'],
  ['.Git/config', () => '.Git/config', 'protected_path'],
  ['.ssh/id_ed25519', () => '.ssh/id_ed25519', 'protected_path'],
  ['an SSH private key anywhere', () => 'keys/id_rsa', 'protected_path'],
  ['a trailing dot', () => '.env.', 'protected_path'],
  ['a trailing space', () => '.env ', 'protected_path'],
  ['an NTFS ::$DATA stream', () => '.env::$DATA', 'protected_path'],
  ['a :stream suffix', () => '.env:x', 'protected_path'],
  ['a fullwidth look-alike (NFKC)', () => '.\uff45\uff4e\uff56', 'protected_path'],
  ['an ignorable code point (HFS+)', () => '.e\u200cnv', 'protected_path'],
  ['the floor reached through ..', () => 'src/../.ssh/id_ed25519', 'protected_path'],
  ['a NUL byte', () => 'src/index.ts\0.png', 'invalid_path'],
  ['a UNC path', () => '\\\\server\\share\\x', 'invalid_path'],
  ['a device-namespace path', () => '\\\\?\\C:\\x', 'invalid_path'],
  ['a // path', () => '//server/share', 'invalid_path'],
  ['a very long path', () => `${'a/'.repeat(2100)}x`, 'invalid_path'],
  ['a very long segment', () => 'a'.repeat(300), 'invalid_path'],
];

describe('read_file refuses', () => {
  it.each(deniedReads)('%s', async (_label, requested, reason) => {
    const attempt = box.fs.readFile({ path: requested(box) });

    await expect(attempt).rejects.toMatchObject({
      code: 'tool_denied',
      reason,
      toolId: 'read_file',
    });
  });

  it('feeds back only a scope escape as recoverable', async () => {
    const escape = await box.fs
      .readFile({ path: '../outside/secret.txt' })
      .catch((error: unknown) => error);
    const floor = await box.fs.readFile({ path: '.ENV' }).catch((error: unknown) => error);
    const symlinked = await box.fs.readFile({ path: 'link.txt' }).catch((error: unknown) => error);

    expect(
      [escape, floor, symlinked].map((error) => (error as ToolPolicyError).recoverable),
    ).toEqual([true, false, false]);
  });

  it('never puts a path in a message', async () => {
    const messages = await Promise.all(
      deniedReads.map(([, requested]) =>
        box.fs.readFile({ path: requested(box) }).then(
          () => 'resolved',
          (error: Error) => `${error.message}`,
        ),
      ),
    );

    for (const message of messages) expect(message).toMatch(/^tool read_file denied: [a-z_]+$/);
  });
});

describe('read_file allows', () => {
  it.each([
    ['a symlink that stays inside the root', 'inner.txt', 'hello'],
    ['a public key', 'keys/id_rsa.pub', 'ssh-ed25519 AAAA'],
    ['a Cyrillic look-alike (a different name on every filesystem)', '.\u0435nv', 'look-alike'],
    ['a path that climbs back in', 'src/../src/index.ts', 'hello'],
  ])('%s', async (_label, requested, content) => {
    const read = await box.fs.readFile({ path: requested });

    expect(read.content).toBe(content);
  });

  it('closes what it opened before a symlinked directory, so repeated reads hold no descriptor', async () => {
    await mkdir(path.join(box.root, 'nested'), { recursive: true });
    await symlink('../src', path.join(box.root, 'nested', 'srclink'));
    const openDescriptors = (): number => readdirSync('/proc/self/fd').length;
    await box.fs.readFile({ path: 'nested/srclink/index.ts' });
    const before = openDescriptors();

    for (let round = 0; round < 50; round++) {
      await box.fs.readFile({ path: 'nested/srclink/index.ts' });
    }

    expect(openDescriptors() - before).toBeLessThan(5);
  });

  it('an absolute path inside the root', async () => {
    const read = await box.fs.readFile({ path: path.join(box.root, 'src/index.ts') });

    expect(read.content).toBe('hello');
  });

  it('reports a missing file as a recoverable not_found execution error', async () => {
    const error = await box.fs.readFile({ path: 'missing.txt' }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ToolExecutionError);
    expect(error).toMatchObject({
      reason: 'not_found',
      recoverable: true,
      message: 'tool read_file failed: not_found',
    });
  });

  it('reports a directory as is_directory', async () => {
    await expect(box.fs.readFile({ path: 'src' })).rejects.toMatchObject({
      reason: 'is_directory',
    });
  });
});

describe('write_file refuses', () => {
  it.each([
    ['a dangling symlink as target', 'dangling', false, false, 'symlink_refused'],
    ['a dangling symlink as append target', 'dangling', true, false, 'symlink_refused'],
    ['a symlinked file', 'link.txt', false, false, 'symlink_refused'],
    ['a symlink inside the root', 'inner.txt', false, false, 'symlink_refused'],
    ['a symlinked directory component', 'linkdir/new.txt', false, false, 'symlink_refused'],
    [
      'createDirs under a symlinked directory',
      'linkdir/a/b/new.txt',
      false,
      true,
      'symlink_refused',
    ],
    ['a hard link (replace)', 'hard.txt', false, false, 'hard_link_refused'],
    ['a hard link (append)', 'hard.txt', true, false, 'hard_link_refused'],
    ['a ../ escape', '../outside/new.txt', false, false, 'scope_escape'],
    ['a prefix collision', '../app-evil/new.txt', false, false, 'scope_escape'],
    ['.git internals', '.git/hooks/pre-commit', false, true, 'protected_path'],
    ['.GIT internals', '.GIT/hooks/pre-commit', false, true, 'protected_path'],
    ['a shell startup file', '.bashrc', false, false, 'protected_path'],
    ['config.fish', '.config/fish/config.fish', false, true, 'protected_path'],
    ['the project config file', 'toolhost.config.json', false, false, 'protected_path'],
    ['.gitconfig', '.gitconfig', false, false, 'protected_path'],
    ['a read-floor file (.env)', '.env', false, false, 'protected_path'],
    ['a NUL byte', 'src/\0', false, false, 'invalid_path'],
  ])('%s', async (_label, requested, append, createDirs, reason) => {
    const attempt = box.fs.writeFile({ path: requested, content: 'WRITTEN', append, createDirs });

    await expect(attempt).rejects.toMatchObject({
      code: 'tool_denied',
      reason,
      toolId: 'write_file',
    });
  });

  it('the state directory and the spill directory', async () => {
    const spilled = await box.host.outputStore?.spill('spilled', { maxBytes: 1, maxLines: 1 });

    await expect(
      box.fs.writeFile({ path: spilled?.ref ?? '', content: 'x' }),
    ).rejects.toMatchObject({
      reason: 'protected_path',
    });
    await expect(
      box.fs.writeFile({ path: path.join(box.stateDir, 'x'), content: 'x' }),
    ).rejects.toMatchObject({
      reason: 'protected_path',
    });
  });

  it('a directory as is_directory, not recoverable', async () => {
    const error = await box.fs
      .writeFile({ path: 'src', content: 'x' })
      .catch((caught: unknown) => caught);

    expect(error).toMatchObject({ reason: 'is_directory', recoverable: false });
  });

  it('a missing parent without createDirs as not_found', async () => {
    await expect(box.fs.writeFile({ path: 'nowhere/x.txt', content: 'x' })).rejects.toMatchObject({
      reason: 'not_found',
    });
  });
});

describe('list_directory', () => {
  it.each([
    ['the parent', '..', 'scope_escape'],
    ['the filesystem root', '/', 'scope_escape'],
    ['a symlinked directory out of the root', 'linkdir', 'symlink_refused'],
    ['a symlink to the parent', 'up', 'symlink_refused'],
    ['a floor directory', '.ssh', 'protected_path'],
  ])('refuses %s', async (_label, requested, reason) => {
    await expect(box.fs.listDirectory({ path: requested })).rejects.toMatchObject({
      code: 'tool_denied',
      reason,
    });
  });

  it('omits floor entries and never follows a symlinked directory', async () => {
    const listing = await box.fs.listDirectory({ path: '.', recursive: true });
    const names = listing.entries.map((entry) => entry.name);

    expect(names).toEqual(
      expect.arrayContaining([
        'src/index.ts',
        'keys/id_rsa.pub',
        'linkdir',
        'up',
        '.\u0435nv',
        '.Git',
      ]),
    );
    for (const hidden of [
      '.ENV',
      '.env.local',
      '.ssh',
      '.Git/config',
      'keys/id_rsa',
      '.env.',
      '.env::$DATA',
      'linkdir/secret.txt',
    ])
      expect(names).not.toContain(hidden);
    expect(names.some((name) => name.startsWith('up/') || name.startsWith('linkdir/'))).toBe(false);
    expect(listing.entries.find((entry) => entry.name === 'linkdir')?.type).toBe('symlink');
  });

  it('matches globs segment by segment', async () => {
    const shallow = await box.fs.listDirectory({ path: '.', recursive: true, glob: '*.ts' });
    const deep = await box.fs.listDirectory({ path: '.', recursive: true, glob: '**/*.ts' });

    expect(shallow.entries).toEqual([]);
    expect(deep.entries.map((entry) => entry.name)).toEqual(['src/index.ts']);
  });
});
