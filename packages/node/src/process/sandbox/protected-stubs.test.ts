import { closeSync, constants, openSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureProtectedName } from './protected-stubs.js';

const O_PATH = 0o10000000;

describe('ensureProtectedName', () => {
  let base = '';
  let gitDir = '';
  let fd = -1;
  beforeEach(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'toolhost-stubs-'));
    gitDir = path.join(base, '.git');
    await mkdir(gitDir);
    fd = openSync(gitDir, O_PATH | constants.O_DIRECTORY);
  });
  afterEach(async () => {
    closeSync(fd);
    await rm(base, { recursive: true, force: true });
  });

  it('makes a missing file and directory in the pinned directory and leaves them', async () => {
    ensureProtectedName(fd, 'hooks', 'directory');
    ensureProtectedName(fd, 'config', 'file');

    expect((await lstat(path.join(gitDir, 'hooks'))).isDirectory()).toBe(true);
    const config = await lstat(path.join(gitDir, 'config'));
    expect(config.isFile() && config.size === 0).toBe(true);
  });

  it('never touches a name that exists, symlink or not', async () => {
    await writeFile(path.join(gitDir, 'config'), 'user content');
    await symlink(base, path.join(gitDir, 'hooks'));

    ensureProtectedName(fd, 'config', 'file');
    ensureProtectedName(fd, 'hooks', 'directory');

    expect(await readFile(path.join(gitDir, 'config'), 'utf8')).toBe('user content');
    expect((await lstat(path.join(gitDir, 'hooks'))).isSymbolicLink()).toBe(true);
  });

  it('creates where the descriptor points, not where the path now leads', async () => {
    // The git dir renamed away and a symlink to elsewhere put in its place after the pin.
    const elsewhere = path.join(base, 'elsewhere');
    await mkdir(elsewhere);
    const { rename } = await import('node:fs/promises');
    await rename(gitDir, path.join(base, 'moved'));
    await symlink(elsewhere, gitDir);

    ensureProtectedName(fd, 'hooks', 'directory');

    expect((await lstat(path.join(base, 'moved', 'hooks'))).isDirectory()).toBe(true);
    await expect(lstat(path.join(elsewhere, 'hooks'))).rejects.toThrow();
  });
});
