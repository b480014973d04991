import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { moveIntoQuarantine } from './move-into-quarantine.js';

describe('moveIntoQuarantine', () => {
  let base = '';
  let gitDir = '';
  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-move-')));
    gitDir = path.join(base, '.git');
    await mkdir(path.join(gitDir, 'objects', 'info'), { recursive: true });
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  it('moves each name into one fresh quarantine directory inside the git dir', async () => {
    await writeFile(path.join(gitDir, 'commondir'), '../evil\n');
    await writeFile(path.join(gitDir, 'objects', 'info', 'alternates'), '/x\n');

    const moved = moveIntoQuarantine({ gitDir, realGitDir: gitDir }, [
      'commondir',
      'objects/info/alternates',
    ]);

    const [first, second] = [moved.get('commondir'), moved.get('objects/info/alternates')];
    expect(first).toMatch(/^toolhost-quarantine-[^/]+\/0-commondir$/);
    expect(second).toMatch(/^toolhost-quarantine-[^/]+\/1-objects%2Finfo%2Falternates$/);
    expect(existsSync(path.join(gitDir, first ?? 'x'))).toBe(true);
    expect(existsSync(path.join(gitDir, 'commondir'))).toBe(false);
  });

  it('never walks through a symlinked directory on the way', async () => {
    const outside = path.join(base, 'outside');
    await mkdir(path.join(outside, 'info'), { recursive: true });
    await writeFile(path.join(outside, 'info', 'alternates'), 'host file');
    await rm(path.join(gitDir, 'objects'), { recursive: true });
    await symlink(outside, path.join(gitDir, 'objects'));

    const moved = moveIntoQuarantine({ gitDir, realGitDir: gitDir }, ['objects/info/alternates']);

    expect(moved.size).toBe(0);
    expect(await readdir(path.join(outside, 'info'))).toEqual(['alternates']);
  });

  it('moves nothing from a git dir that is no longer the one snapshotted', async () => {
    await writeFile(path.join(gitDir, 'commondir'), '../evil\n');

    const moved = moveIntoQuarantine({ gitDir, realGitDir: path.join(base, 'other') }, [
      'commondir',
    ]);

    expect(moved.size).toBe(0);
    expect(existsSync(path.join(gitDir, 'commondir'))).toBe(true);
  });
});
