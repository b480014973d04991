import { mkdirSync, readdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createJail } from './jail.js';
import type { Jail } from './jail.js';
import { listStatSources, setListStatSource } from './list-stat-source.js';
import { walkBreadthFirst } from './walk-breadth-first.js';
import type { LevelEntry, WalkStep } from './walk-breadth-first.js';

// Every walk runs through both stat sources: the fs-at addon's batched fstatat (where it is
// built) and Node's lstat through procfs.
describe.each(await listStatSources())('with the %s stat source', (source) => {
  beforeAll(() => setListStatSource(source));
  afterAll(() => setListStatSource('native'));

  describe('walkBreadthFirst', () => {
    let base = '';
    let root = '';
    let jail: Jail;
    beforeEach(async () => {
      base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-bfs-')));
      root = path.join(base, 'app');
      await mkdir(path.join(root, 'a/deep'), { recursive: true });
      await mkdir(path.join(root, 'b'), { recursive: true });
      await mkdir(path.join(base, 'outside'));
      await mkdir(path.join(base, 'state/spill/run'), { recursive: true });
      await writeFile(path.join(root, 'a/deep/leaf.txt'), '');
      await writeFile(path.join(root, 'a/one.txt'), '');
      await writeFile(path.join(root, 'b/two.txt'), '');
      await writeFile(path.join(base, 'outside/secret.txt'), 'OUTSIDE');
      await symlink(path.join(base, 'outside'), path.join(root, 'link'));
      jail = await createJail({
        root,
        fsScope: 'sandboxed',
        extraRoots: [],
        floor: {
          stateDir: path.join(base, 'state'),
          spillDir: path.join(base, 'state/spill/run'),
          configFile: path.join(root, 'toolhost.config.json'),
        },
      });
    });
    afterEach(async () => {
      await jail.close();
      await rm(base, { recursive: true, force: true });
    });

    async function walk(visit: (entry: LevelEntry) => WalkStep = () => 'descend') {
      const seen: string[] = [];
      const start = await jail.openForRead('list_directory', '.', 'directory');
      try {
        const finished = await walkBreadthFirst(jail, start, {
          toolId: 'list_directory',
          recursive: true,
          visit(entry) {
            seen.push(`${entry.relative}${entry.type === 'directory' ? '/' : ''}`);
            return visit(entry);
          },
        });
        return { seen, finished };
      } finally {
        await start.handle.close();
      }
    }

    it('meets every level before the next, and never follows a symlinked directory', async () => {
      const { seen, finished } = await walk();

      expect(finished).toBe(true);
      expect(seen).toEqual([
        'a/',
        'b/',
        'link',
        'a/deep/',
        'a/one.txt',
        'b/two.txt',
        'a/deep/leaf.txt',
      ]);
    });

    it('does not walk into a pruned directory', async () => {
      const { seen } = await walk((entry) => (entry.name === 'a' ? 'prune' : 'descend'));

      expect(seen).toEqual(['a/', 'b/', 'link', 'b/two.txt']);
    });

    it('stops when told, and says so', async () => {
      const { seen, finished } = await walk((entry) => (entry.name === 'b' ? 'stop' : 'descend'));

      expect(finished).toBe(false);
      expect(seen).toEqual(['a/', 'b/']);
    });

    it('skips a directory replaced by another one after it was listed, never walking the new one', async () => {
      const { seen } = await walk((entry) => {
        // Listed (lstat'ed, as a listing does for an entry it shows), then, before the walk
        // reaches it, another directory takes its name.
        if (entry.relative === 'b') {
          entry.lstat();
          renameSync(path.join(root, 'b'), path.join(root, 'b-old'));
          mkdirSync(path.join(root, 'b'));
          writeFileSync(path.join(root, 'b', 'planted.txt'), '');
        }
        return 'descend';
      });

      expect(seen).not.toContain('b/planted.txt');
      expect(seen).not.toContain('b/two.txt');
    });

    it('has closed every directory it opened once it resolves, stopped or not', async () => {
      // The chain closes a directory it leaves alongside the next open: the walk still waits.
      const open = () => readdirSync('/proc/self/fd').length;
      for (const stopAt of [undefined, 'a/deep/leaf.txt']) {
        const start = await jail.openForRead('list_directory', '.', 'directory');
        const before = open();
        try {
          await walkBreadthFirst(jail, start, {
            toolId: 'list_directory',
            recursive: true,
            visit: (entry) => (entry.relative === stopAt ? 'stop' : 'descend'),
          });
          expect(open()).toBe(before);
        } finally {
          await start.handle.close();
        }
      }
    });

    it('refuses to look an entry up once the walk has left its directory', async () => {
      const kept: LevelEntry[] = [];
      await walk((entry) => {
        kept.push(entry);
        return 'descend';
      });

      // The descriptor's number may name another file by now: no lookup through it.
      const late = kept.find((entry) => entry.relative === 'a/one.txt');
      expect(() => late?.lstat()).toThrow(/after its directory was left/);
    });

    it('gives the event loop a turn between directories, and stops there once aborted', async () => {
      const controller = new AbortController();
      const start = await jail.openForRead('list_directory', '.', 'directory');
      const entered: string[] = [];
      try {
        // Fires at the walk's first turn: every open and lookup in between is synchronous.
        setImmediate(() => controller.abort());
        const walked = walkBreadthFirst(jail, start, {
          toolId: 'list_directory',
          recursive: true,
          signal: controller.signal,
          visit(entry) {
            entered.push(entry.relative);
            // The first level takes longer than the pace's interval: a turn is due before `a`.
            if (entry.depth === 1) {
              const until = performance.now() + 5;
              while (performance.now() < until);
            }
            return 'descend';
          },
        });

        await expect(walked).rejects.toMatchObject({ code: 'cancelled', toolId: 'list_directory' });
        expect(entered).toEqual(['a', 'b', 'link']);
      } finally {
        await start.handle.close();
      }
    });

    it('never walks into a directory swapped for a symlink before its lookup', async () => {
      const { seen } = await walk((entry) => {
        // `a` was met as a directory by readdir; it is a symlink out by the time it is lstat'ed.
        if (entry.relative === 'a') {
          renameSync(path.join(root, 'a'), path.join(root, 'a-old'));
          symlinkSync(path.join(base, 'outside'), path.join(root, 'a'));
        }
        return 'descend';
      });

      // Met (as readdir typed it), never entered.
      expect(seen.filter((name) => name.startsWith('a/') && name !== 'a/')).toEqual([]);
      expect(seen).not.toContain('a/secret.txt');
    });
  });
});
