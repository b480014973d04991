import { spawnSync } from 'node:child_process';
import { chmod, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox } from './test-support/sandbox.js';
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
