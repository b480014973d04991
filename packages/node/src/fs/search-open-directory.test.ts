import { closeSync, openSync, renameSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FloorContext } from './floor.js';
import { openSearchDirectory } from './search-open-directory.js';
import { DIRECTORY_FLAGS } from './walk-components.js';

let base: string;
let root: string;
let floor: FloorContext;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-open-dir-')));
  root = path.join(base, 'app');
  await mkdir(path.join(root, 'sub'), { recursive: true });
  await mkdir(path.join(root, '.ssh'));
  await mkdir(path.join(base, 'outside'));
  await writeFile(path.join(root, 'file.txt'), 'x');
  await symlink(path.join(base, 'outside'), path.join(root, 'link-out'));
  await symlink('sub', path.join(root, 'link-in'));
  floor = {
    stateDir: path.join(base, 'state'),
    spillDir: path.join(base, 'state', 'spill'),
    configFile: path.join(root, 'toolhost.config.json'),
  };
});
afterAll(() => rm(base, { recursive: true, force: true }));

function withRoot<T>(run: (parent: { fd: number; path: string }) => T): T {
  const fd = openSync(root, DIRECTORY_FLAGS);
  try {
    return run({ fd, path: root });
  } finally {
    closeSync(fd);
  }
}

describe('openSearchDirectory', () => {
  it('opens a real subdirectory at its verified path', () => {
    const opened = withRoot((parent) => openSearchDirectory(parent, 'sub', floor));

    expect(opened?.path).toBe(path.join(root, 'sub'));
    if (opened !== undefined) closeSync(opened.fd);
  });

  it.each([
    ['a symlink out of the root', 'link-out'],
    ['a symlink inside the root', 'link-in'],
    ['a file', 'file.txt'],
    ['a missing name', 'gone'],
    ['a floor directory', '.ssh'],
  ])('refuses %s', (_case, name) => {
    expect(withRoot((parent) => openSearchDirectory(parent, name, floor))).toBeUndefined();
  });

  it('refuses a child of a directory that moved since it was verified', async () => {
    await mkdir(path.join(root, 'mover', 'child'), { recursive: true });
    const fd = openSync(path.join(root, 'mover'), DIRECTORY_FLAGS);
    try {
      // Verified at `app/mover`, now elsewhere: its child is not where the walk thinks it is.
      renameSync(path.join(root, 'mover'), path.join(base, 'outside', 'mover'));
      expect(openSearchDirectory({ fd, path: path.join(root, 'mover') }, 'child', floor)).toBe(
        undefined,
      );
    } finally {
      closeSync(fd);
    }
  });
});
