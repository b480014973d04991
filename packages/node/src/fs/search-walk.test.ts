import { renameSync, symlinkSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitignoreStack } from './gitignore-stack.js';
import type { Jail, OpenedEntry } from './jail.js';
import { readChildFile } from './open-child-file.js';
import { createSearchPace } from './search-pace.js';
import { walkSearchTree } from './search-walk.js';
import { createSandbox, createSandboxJail } from './test-support/sandbox.js';
import type { Sandbox } from './test-support/sandbox.js';

let box: Sandbox;
let jail: Jail;

beforeAll(async () => {
  box = await createSandbox({}, async ({ root, outside }) => {
    await writeFile(path.join(outside, 'secret.txt'), 'OUTSIDE');
    await mkdir(path.join(outside, 'dir'));
    await writeFile(path.join(outside, 'dir', 'inner.txt'), 'OUTSIDE');
    await writeFile(path.join(root, 'a.txt'), 'inside');
    await mkdir(path.join(root, 'b-dir'));
    await writeFile(path.join(root, 'b-dir', 'inner.txt'), 'inside');
    await writeFile(path.join(root, 'c.txt'), 'inside');
  });
  jail = await createSandboxJail(box);
});
afterAll(async () => {
  await jail.close();
  await box.close();
});

describe('walkSearchTree', () => {
  it('never reads through entries swapped for symlinks out of the root after the listing', async () => {
    const start: OpenedEntry = await jail.openForRead('search_files', '.', 'directory');
    const buffer = Buffer.alloc(1024);
    const read: Record<string, string> = {};
    try {
      await walkSearchTree(jail, start, {
        prefix: '',
        rules: GitignoreStack.empty,
        skipNodeModules: true,
        maxDepth: 8,
        pace: createSearchPace(undefined),
        onIgnored: () => undefined,
        visitFiles(directory, names, relatives) {
          for (const [index, relative] of relatives.entries()) {
            // The first file visited swaps what the listing already said comes next.
            if (relative === 'a.txt') {
              renameSync(path.join(box.root, 'b-dir'), path.join(box.root, '.b-dir-real'));
              symlinkSync(path.join(box.outside, 'dir'), path.join(box.root, 'b-dir'));
              renameSync(path.join(box.root, 'c.txt'), path.join(box.root, '.c-real'));
              symlinkSync(path.join(box.outside, 'secret.txt'), path.join(box.root, 'c.txt'));
            }
            const result = readChildFile(directory, names[index] ?? '', buffer);
            read[relative] =
              result.kind === 'read' ? buffer.toString('utf8', 0, result.length) : result.kind;
          }
          return true;
        },
      });
    } finally {
      await start.handle.close();
    }

    // `b-dir` was listed as a directory and `c.txt` as a file; neither was followed.
    expect(read).toEqual({ 'a.txt': 'inside', 'c.txt': 'refused' });
  });

  it('hands the files over in runs, split at each subdirectory, in listing order', async () => {
    for (const file of ['order/a.txt', 'order/b.txt', 'order/m/inner.txt', 'order/z.txt'])
      await mkdir(path.dirname(path.join(box.root, file)), { recursive: true }).then(() =>
        writeFile(path.join(box.root, file), 'inside'),
      );
    const start: OpenedEntry = await jail.openForRead('search_files', 'order', 'directory');
    const runs: string[][] = [];
    try {
      await walkSearchTree(jail, start, {
        prefix: 'order/',
        rules: GitignoreStack.empty,
        skipNodeModules: true,
        maxDepth: 8,
        pace: createSearchPace(undefined),
        onIgnored: () => undefined,
        visitFiles(_directory, names, relatives) {
          expect(relatives.map((relative) => path.basename(relative))).toEqual(names);
          runs.push([...relatives]);
          return true;
        },
      });
    } finally {
      await start.handle.close();
    }

    // A batch read of a run keeps the walk's order: m's file comes between b.txt and z.txt.
    expect(runs).toEqual([['a.txt', 'b.txt'], ['m/inner.txt'], ['z.txt']]);
  });
});
