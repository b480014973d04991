import { mkdir, mkdtemp, realpath, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FloorContext } from '../../fs/floor.js';
import { scanWorkspace } from './scan-workspace.js';

describe('scanWorkspace', () => {
  let root = '';
  let floor: FloorContext;
  beforeEach(async () => {
    root = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-scan-')));
    floor = {
      stateDir: path.join(root, 'state'),
      spillDir: path.join(root, 'state', 'spill'),
      configFile: path.join(root, 'toolhost.config.json'),
    };
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('finds read-floor names at any depth, in any case, and the write floor', async () => {
    await mkdir(path.join(root, 'a', 'b', '.SSH'), { recursive: true });
    await writeFile(path.join(root, 'a', 'b', '.env.local'), 'x');
    await writeFile(path.join(root, 'a', 'id_ed25519'), 'x');
    await writeFile(path.join(root, 'a', 'id_ed25519.pub'), 'x');
    await writeFile(path.join(root, '.zshrc'), 'x');
    await writeFile(path.join(root, 'toolhost.config.json'), '{}');
    await mkdir(path.join(root, 'state'));

    const scan = scanWorkspace(root, floor);

    expect(scan.masked.map((mask) => path.relative(root, mask.path)).sort()).toEqual([
      'a/b/.SSH',
      'a/b/.env.local',
      'a/id_ed25519',
      'state',
    ]);
    expect(scan.masked.find((mask) => mask.path.endsWith('.SSH'))?.kind).toBe('directory');
    expect(scan.readOnly.map((file) => path.relative(root, file)).sort()).toEqual([
      '.zshrc',
      'toolhost.config.json',
    ]);
  });

  it('never follows a symlink, and skips a link named like a secret', async () => {
    const outside = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-scan-out-')));
    try {
      await writeFile(path.join(outside, '.env'), 'x');
      await symlink(outside, path.join(root, 'linked'));
      await symlink(path.join(outside, '.env'), path.join(root, '.env'));

      const scan = scanWorkspace(root, floor);

      expect(scan.masked).toEqual([]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('finds every git dir: .git dirs, a .git file pointer (frozen), submodule gitdirs', async () => {
    await mkdir(path.join(root, '.git', 'modules', 'lib'), { recursive: true });
    await writeFile(path.join(root, '.git', 'modules', 'lib', 'HEAD'), 'ref: refs/heads/main\n');
    await mkdir(path.join(root, 'nested', '.git'), { recursive: true });
    await mkdir(path.join(root, 'lib'));
    await writeFile(path.join(root, 'lib', '.git'), 'gitdir: ../.git/modules/lib\n');
    await writeFile(path.join(root, '.git', 'credentials'), 'x');

    const scan = scanWorkspace(root, floor);

    expect(new Set(scan.gitDirs.map((dir) => path.relative(root, dir)))).toEqual(
      new Set(['.git', '.git/modules/lib', 'nested/.git']),
    );
    expect(scan.readOnly).toContain(path.join(root, 'lib', '.git'));
    expect(scan.masked).toContainEqual({
      path: path.join(root, '.git', 'credentials'),
      kind: 'file',
    });
  });

  it('sees a secret added after a cached scan, even within the same mtime tick', async () => {
    await mkdir(path.join(root, 'deep', 'er'), { recursive: true });
    expect(scanWorkspace(root, floor).masked).toEqual([]);
    const directory = path.join(root, 'deep', 'er');
    await writeFile(path.join(directory, '.npmrc'), 'token');
    // Pretend the directory did not change: same mtime as before the write.
    const then = new Date(Date.now() - 60_000);
    await utimes(directory, then, then);

    const scan = scanWorkspace(root, floor);

    expect(scan.masked).toEqual([{ path: path.join(directory, '.npmrc'), kind: 'file' }]);
  });
});
