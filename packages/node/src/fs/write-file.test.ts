import { spawnSync } from 'node:child_process';
import { chmod, lstat, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, snapshotTree } from './test-support/sandbox.js';
import type { Sandbox } from './test-support/sandbox.js';

const fixture = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'test-support/write-under-fsize-limit.ts',
);

describe('write_file', () => {
  let box: Sandbox | undefined;
  afterEach(async () => {
    await box?.close();
    box = undefined;
  });

  it('replaces a file, keeps its mode and leaves no temp file', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await writeFile(path.join(root, 'a.txt'), 'old');
      await chmod(path.join(root, 'a.txt'), 0o640);
    });

    const written = await box.fs.writeFile({ path: 'a.txt', content: 'né' });

    expect(written).toEqual({ path: 'a.txt', bytesWritten: 3 });
    expect(await readFile(path.join(box.root, 'a.txt'), 'utf8')).toBe('né');
    expect((await stat(path.join(box.root, 'a.txt'))).mode & 0o777).toBe(0o640);
    expect(await readdir(box.root)).toEqual(['a.txt']);
  });

  it('never carries setuid or setgid over to the new content', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await writeFile(path.join(root, 'tool'), '#!/bin/sh\n');
      await chmod(path.join(root, 'tool'), 0o6755);
    });

    await box.fs.writeFile({ path: 'tool', content: '#!/bin/sh\nid\n' });

    expect((await stat(path.join(box.root, 'tool'))).mode & 0o7777).toBe(0o755);
  });

  it('appends, creating the file when missing', async () => {
    box = await createSandbox();

    await box.fs.writeFile({ path: 'log.txt', content: 'one\n', append: true });
    await box.fs.writeFile({ path: 'log.txt', content: 'two\n', append: true });

    expect(await readFile(path.join(box.root, 'log.txt'), 'utf8')).toBe('one\ntwo\n');
  });

  it('creates missing directories only with createDirs', async () => {
    box = await createSandbox();

    const written = await box.fs.writeFile({ path: 'a/b/c.txt', content: '', createDirs: true });

    expect(written).toEqual({ path: 'a/b/c.txt', bytesWritten: 0 });
    expect(await readFile(path.join(box.root, 'a/b/c.txt'), 'utf8')).toBe('');
  });

  it('keeps the previous content when a write fails midway', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await writeFile(path.join(root, 'keep.txt'), 'PREVIOUS');
    });
    const { root, stateDir } = box;

    // RLIMIT_FSIZE of 1 MiB: the 4 MiB write fails with EFBIG after the temp file has 1 MiB.
    const run = spawnSync(
      'bash',
      [
        '-c',
        'ulimit -f 1024 && exec "$0" --conditions=source --import tsx "$@"',
        process.execPath,
        fixture,
        root,
        stateDir,
        'keep.txt',
        String(4 * 1024 * 1024),
      ],
      { encoding: 'utf8', cwd: path.resolve(path.dirname(fixture), '../../../../..') },
    );

    expect(JSON.parse(run.stdout)).toEqual({ ok: false, reason: 'too_large' });
    expect(await readFile(path.join(root, 'keep.txt'), 'utf8')).toBe('PREVIOUS');
    expect(await readdir(root)).toEqual(['keep.txt']);
  });

  it('refuses before any effect when already aborted', async () => {
    box = await createSandbox();
    const controller = new AbortController();
    controller.abort();

    const attempt = box.fs.writeFile({ path: 'x.txt', content: 'x' }, controller.signal);

    await expect(attempt).rejects.toMatchObject({ code: 'cancelled' });
    expect(await readdir(box.root)).toEqual([]);
  });
});

describe('write_file on a special file', () => {
  it('refuses to append to a FIFO before opening it', async () => {
    const box = await createSandbox();
    try {
      expect(spawnSync('mkfifo', [path.join(box.root, 'pipe')]).status).toBe(0);

      const attempt = box.fs.writeFile({ path: 'pipe', content: 'x', append: true });

      await expect(attempt).rejects.toMatchObject({ reason: 'unsupported_file_type' });
    } finally {
      await box.close();
    }
  });
});

describe('write_file through a symlinked directory', () => {
  let box: Sandbox | undefined;
  afterEach(async () => {
    await box?.close();
    box = undefined;
  });

  // A checkout with aliases: in-root ones the write resolves, and ones to places it may not go.
  const prepare = async ({ root, outside }: { root: string; outside: string }): Promise<void> => {
    await mkdir(path.join(root, 'src'));
    await writeFile(path.join(root, 'src', 'index.ts'), 'OLD');
    await mkdir(path.join(root, '.git', 'hooks'), { recursive: true });
    await mkdir(path.join(root, '.ssh'));
    await mkdir(path.join(root, '.config', 'fish'), { recursive: true });
    await writeFile(path.join(outside, 'index.ts'), 'OUTSIDE');
    await symlink('src', path.join(root, 'srcalias'));
    await symlink(path.join(root, 'src'), path.join(root, 'absalias'));
    await symlink('srcalias', path.join(root, 'chain'));
    await symlink('../app/src', path.join(root, 'roundabout'));
    await symlink('src/pending', path.join(root, 'dangling'));
    await symlink('.git', path.join(root, 'gitalias'));
    await symlink('.git/hooks', path.join(root, 'hooksalias'));
    await symlink('.ssh', path.join(root, 'sshalias'));
    await symlink('.config/fish', path.join(root, 'fishalias'));
    await symlink(outside, path.join(root, 'etcalias'));
    await symlink('..', path.join(root, 'up'));
    await symlink('loop2', path.join(root, 'loop1'));
    await symlink('loop1', path.join(root, 'loop2'));
    await symlink(path.join(outside, 'index.ts'), path.join(root, 'src', 'leaf.ts'));
    await symlink('index.ts', path.join(root, 'src', 'inner-leaf.ts'));
  };

  it.each([
    ['a relative alias', 'srcalias/index.ts', 'src/index.ts'],
    ['an absolute alias', 'absalias/index.ts', 'src/index.ts'],
    ['a chain of aliases', 'chain/index.ts', 'src/index.ts'],
    ['an alias that leaves and re-enters the root', 'roundabout/index.ts', 'src/index.ts'],
    ['a parent alias that lands back inside', 'up/app/src/index.ts', 'src/index.ts'],
  ])('lands %s at the real location', async (_case, requested, landed) => {
    box = await createSandbox({}, prepare);

    const written = await box.fs.writeFile({ path: requested, content: 'NEW' });
    const read = await box.fs.readFile({ path: requested });

    expect(written).toEqual({ path: landed, bytesWritten: 3 });
    expect(await readFile(path.join(box.root, landed), 'utf8')).toBe('NEW');
    expect(read.content).toBe('NEW');
    expect((await lstat(path.join(box.root, requested.split('/')[0] ?? ''))).isSymbolicLink()).toBe(
      true,
    );
  });

  it('appends through an alias', async () => {
    box = await createSandbox({}, prepare);

    await box.fs.writeFile({ path: 'srcalias/index.ts', content: '+', append: true });

    expect(await readFile(path.join(box.root, 'src', 'index.ts'), 'utf8')).toBe('OLD+');
  });

  it('creates directories at the real location with createDirs', async () => {
    box = await createSandbox({}, prepare);

    const nested = await box.fs.writeFile({
      path: 'srcalias/new/deep.ts',
      content: 'D',
      createDirs: true,
    });
    const pending = await box.fs.writeFile({
      path: 'dangling/x.ts',
      content: 'P',
      createDirs: true,
    });

    expect(nested.path).toBe('src/new/deep.ts');
    expect(pending.path).toBe('src/pending/x.ts');
    expect(await readFile(path.join(box.root, 'src', 'pending', 'x.ts'), 'utf8')).toBe('P');
  });

  it.each([
    ['hooks through an alias of .git', 'gitalias/hooks/pre-commit', false, 'protected_path'],
    ['a hook through an alias of .git/hooks', 'hooksalias/pre-commit', false, 'protected_path'],
    ['a new .git directory through an alias', 'gitalias/info/x', true, 'protected_path'],
    ['a key through an alias of .ssh', 'sshalias/authorized_keys', false, 'protected_path'],
    ['a shell startup file through an alias', 'fishalias/config.fish', false, 'protected_path'],
    ['an alias out of the root', 'etcalias/index.ts', false, 'symlink_refused'],
    ['createDirs under an alias out of the root', 'etcalias/a/b.ts', true, 'symlink_refused'],
    ['a parent alias out of the root', 'up/outside/index.ts', false, 'symlink_refused'],
    ['an alias loop', 'loop1/x.ts', true, 'symlink_refused'],
    ['a symlinked leaf behind an alias', 'srcalias/leaf.ts', false, 'symlink_refused'],
    [
      'an in-root symlinked leaf behind an alias',
      'srcalias/inner-leaf.ts',
      false,
      'symlink_refused',
    ],
    ['the alias itself as the leaf', 'srcalias', false, 'symlink_refused'],
  ])('refuses %s, fatally and without an effect', async (_case, requested, createDirs, reason) => {
    box = await createSandbox({}, prepare);
    const before = await snapshotTree(box.sandbox, [box.stateDir]);

    const error: unknown = await box.fs
      .writeFile({ path: requested, content: 'PAYLOAD', createDirs })
      .catch((caught: unknown) => caught);

    expect(error).toMatchObject({ code: 'tool_denied', reason, recoverable: false });
    expect(await snapshotTree(box.sandbox, [box.stateDir])).toEqual(before);
  });

  it('refuses an alias of the read-only spill directory', async () => {
    box = await createSandbox({}, prepare);
    const spilled = await box.host.outputStore?.spill('spilled', { maxBytes: 1, maxLines: 1 });
    await symlink(path.dirname(spilled?.ref ?? ''), path.join(box.root, 'spillalias'));

    const attempt = box.fs.writeFile({ path: 'spillalias/x.txt', content: 'x' });

    await expect(attempt).rejects.toMatchObject({ code: 'tool_denied', recoverable: false });
  });
});
