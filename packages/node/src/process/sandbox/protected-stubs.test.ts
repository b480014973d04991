import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile, lstat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureProtectedNames } from './protected-stubs.js';

describe('ensureProtectedNames', () => {
  let base = '';
  beforeEach(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'toolhost-stubs-'));
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  it('makes a missing file and directory for the run and removes them after', async () => {
    const file = path.join(base, 'toolhost.config.json');
    const directory = path.join(base, 'hooks');
    const held = ensureProtectedNames([
      { path: file, kind: 'file' },
      { path: directory, kind: 'directory' },
    ]);
    expect((await lstat(file)).isFile()).toBe(true);
    expect((await lstat(directory)).isDirectory()).toBe(true);

    held.release();
    held.release();

    expect(existsSync(file)).toBe(false);
    expect(existsSync(directory)).toBe(false);
  });

  it('never touches a name that existed, and keeps a shared stub until the last run ends', async () => {
    const existing = path.join(base, 'config');
    await writeFile(existing, 'user content');
    const stub = path.join(base, 'stub');
    const first = ensureProtectedNames([
      { path: existing, kind: 'file' },
      { path: stub, kind: 'file' },
    ]);
    const second = ensureProtectedNames([{ path: stub, kind: 'file' }]);

    first.release();
    expect(existsSync(stub)).toBe(true);
    second.release();

    expect(existsSync(stub)).toBe(false);
    expect(existsSync(existing)).toBe(true);
  });

  it('leaves a stub that someone filled meanwhile: it is no longer ours to remove', async () => {
    const file = path.join(base, 'filled');
    const held = ensureProtectedNames([{ path: file, kind: 'file' }]);
    await writeFile(file, 'written by the host user during the run');

    held.release();

    expect(existsSync(file)).toBe(true);
  });
});
