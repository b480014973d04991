import { createHook } from 'node:async_hooks';
import { execFileSync } from 'node:child_process';
import { closeSync } from 'node:fs';
import { link, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Jail } from './jail.js';
import { createSandbox, type Sandbox, createSandboxJail } from './test-support/sandbox.js';

// `openFileForRead` is `openForRead(…, 'file')` made synchronous: on every path below, benign or
// hostile, both must open the same real file or refuse with the same code and reason.
let box: Sandbox;
let jail: Jail;

beforeAll(async () => {
  box = await createSandbox({}, async ({ sandbox, root, outside }) => {
    await writeFile(path.join(outside, 'secret.txt'), 'OUTSIDE-SECRET');
    await writeFile(path.join(outside, 'hard-secret.txt'), 'OUTSIDE-SECRET');
    await mkdir(path.join(sandbox, 'app-evil'));
    await writeFile(path.join(sandbox, 'app-evil', 'secret.txt'), 'OUTSIDE-SECRET');
    await mkdir(path.join(root, 'a/b/c'), { recursive: true });
    await writeFile(path.join(root, 'a/b/c/deep.txt'), 'deep');
    await writeFile(path.join(root, 'top.txt'), 'top');
    await mkdir(path.join(root, '.git'));
    await writeFile(path.join(root, '.git/config'), 'FAKE-SECRET');
    await writeFile(path.join(root, '.env'), 'FAKE-SECRET');
    await symlink('a/b', path.join(root, 'inner-dir'));
    await symlink('a/b/c/deep.txt', path.join(root, 'inner.txt'));
    await symlink('.env', path.join(root, 'innocent.txt'));
    await symlink('.git', path.join(root, 'git-alias'));
    await symlink(outside, path.join(root, 'linkdir'));
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
    await symlink(path.join(root, 'linkdir'), path.join(root, 'a/chain'));
    await symlink(path.join(outside, 'missing.txt'), path.join(root, 'dangling'));
    await symlink('loop2', path.join(root, 'loop1'));
    await symlink('loop1', path.join(root, 'loop2'));
    await symlink('..', path.join(root, 'up'));
    await symlink('/dev/null', path.join(root, 'null-link'));
    await link(path.join(outside, 'hard-secret.txt'), path.join(root, 'hard.txt'));
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
  });
  jail = await createSandboxJail(box, path.join(box.stateDir, 'spill', 'test-run'));
});

afterAll(async () => {
  await jail.close();
  await box.close();
});

const PATHS = [
  'top.txt',
  'a/b/c/deep.txt',
  './a/../a/b/c/deep.txt',
  'inner.txt',
  'inner-dir/c/deep.txt',
  'a',
  'a/b',
  'missing.txt',
  'a/missing/deep.txt',
  'top.txt/below',
  '../outside/secret.txt',
  'a/b/../../../outside/secret.txt',
  '/etc/passwd',
  'link.txt',
  'linkdir/secret.txt',
  'a/chain/secret.txt',
  'up/outside/secret.txt',
  'up/app-evil/secret.txt',
  'dangling',
  'loop1',
  'hard.txt',
  '.env',
  'innocent.txt',
  '.git/config',
  'git-alias/config',
  'null-link',
  'pipe',
  '',
  '.',
];

type Outcome = { readonly opened: string } | { readonly code: unknown; readonly reason: unknown };

async function outcome(open: () => Promise<{ path: string; close(): unknown }>): Promise<Outcome> {
  try {
    const opened = await open();
    await opened.close();
    return { opened: opened.path };
  } catch (error) {
    const { code, reason } = error as { code?: unknown; reason?: unknown };
    return { code, reason };
  }
}

describe('jail.openFileForRead', () => {
  it.each(PATHS)('agrees with openForRead(…, "file") on %j', async (requested) => {
    const expected = await outcome(async () => {
      const entry = await jail.openForRead('read_file', requested, 'file');
      return { path: entry.path, close: () => entry.handle.close() };
    });
    const actual = await outcome(async () => {
      const entry = jail.openFileForRead('read_file', requested);
      return { path: entry.path, close: () => closeSync(entry.fd) };
    });
    expect(actual).toEqual(expected);
  });

  it('refuses what the floor, the scope and the link checks refuse', async () => {
    const reason = (requested: string) => {
      try {
        closeSync(jail.openFileForRead('read_file', requested).fd);
        return 'opened';
      } catch (error) {
        return (error as { reason?: unknown }).reason;
      }
    };
    expect(reason('innocent.txt')).toBe('protected_path');
    expect(reason('git-alias/config')).toBe('protected_path');
    expect(reason('a/chain/secret.txt')).toBe('symlink_refused');
    expect(reason('../outside/secret.txt')).toBe('scope_escape');
    expect(reason('hard.txt')).toBe('hard_link_refused');
    expect(reason('pipe')).toBe('unsupported_file_type');
    expect(reason('inner-dir/c/deep.txt')).toBe('opened');
  });
});

describe('read_file of a small file', () => {
  // Each awaited libuv request was a thread-pool round trip costing more than the read itself:
  // open, read and close through a FileHandle were three; the jail's walk is synchronous now.
  it('makes one asynchronous fs request: the read', async () => {
    await box.fs.readFile({ path: 'a/b/c/deep.txt' });
    const requests: string[] = [];
    const hook = createHook({
      init(_id, type) {
        if (type.startsWith('FSREQ') || type === 'FILEHANDLE' || type === 'FILEHANDLECLOSEREQ')
          requests.push(type);
      },
    });
    hook.enable();
    let content: string;
    try {
      ({ content } = await box.fs.readFile({ path: 'a/b/c/deep.txt' }));
    } finally {
      hook.disable();
    }
    expect(content).toBe('deep');
    expect(requests).toEqual(['FSREQCALLBACK']);
  });
});
