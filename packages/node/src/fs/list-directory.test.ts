import { spawn } from 'node:child_process';
import { mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DirectoryListing, FsListRequest } from '@toolhost/core/host';
import { encodeListCursor, listCursorBinding } from './list-cursor.js';
import { MAX_LIST_ENTRIES } from './list-directory.js';
import { listStatSources, setListStatSource } from './list-stat-source.js';
import { createSandbox } from './test-support/sandbox.js';
import type { Sandbox } from './test-support/sandbox.js';

let box: Sandbox;
// 25 directories, each with 100 files and a subdirectory holding one file: 2575 entries.
const WIDE_DIRECTORIES = 25;
const WIDE_FILES = 100;
const WIDE_TOTAL = WIDE_DIRECTORIES * (1 + WIDE_FILES + 1 + 1);

beforeAll(async () => {
  box = await createSandbox({}, async ({ root }) => {
    await mkdir(path.join(root, 'big'));
    for (let index = 0; index < MAX_LIST_ENTRIES + 5; index += 1)
      await writeFile(path.join(root, 'big', `${String(index).padStart(4, '0')}.txt`), '');
    await mkdir(path.join(root, 'small/inner'), { recursive: true });
    await writeFile(path.join(root, 'small/one.txt'), '12345');
    await writeFile(path.join(root, 'small/inner/two.txt'), '');
    await mkdir(path.join(root, 'small/a-dir/deeper'), { recursive: true });
    await writeFile(path.join(root, 'small/a-dir/deeper/three.txt'), '');
    for (let directory = 0; directory < WIDE_DIRECTORIES; directory += 1) {
      const parent = path.join(root, 'wide', `d${String(directory).padStart(2, '0')}`);
      await mkdir(path.join(parent, 'sub'), { recursive: true });
      await writeFile(path.join(parent, 'sub', 'leaf.txt'), '');
      for (let file = 0; file < WIDE_FILES; file += 1)
        await writeFile(path.join(parent, `f${String(file).padStart(3, '0')}.txt`), '');
    }
    for (const ignored of ['repo/.git/objects', 'repo/node_modules/pkg', 'repo/src'])
      await mkdir(path.join(root, ignored), { recursive: true });
    await writeFile(path.join(root, 'repo/.git/HEAD'), 'ref');
    await writeFile(path.join(root, 'repo/node_modules/pkg/index.js'), '');
    await writeFile(path.join(root, 'repo/src/main.ts'), '');
    await mkdir(path.join(root, 'floored/.ssh'), { recursive: true });
    await writeFile(path.join(root, 'floored/.ssh/id_ed25519'), 'FAKE-KEY');
    await writeFile(path.join(root, 'floored/.env'), 'FAKE-SECRET');
    await writeFile(path.join(root, 'floored/plain.txt'), '');
  });
});
afterAll(() => box.close());

function names(listing: DirectoryListing): string[] {
  return listing.entries.map((entry) => entry.name);
}

async function everyPage(request: FsListRequest): Promise<DirectoryListing[]> {
  const pages = [await box.fs.listDirectory(request)];
  for (let cursor = pages[0]?.cursor; cursor !== undefined; cursor = pages.at(-1)?.cursor)
    pages.push(await box.fs.listDirectory({ ...request, cursor }));
  return pages;
}

// Every listing runs through both stat sources: the fs-at addon's batched fstatat (where it is
// built) and Node's lstat through procfs.
describe.each(await listStatSources())('with the %s stat source', (source) => {
  beforeAll(() => setListStatSource(source));
  afterAll(() => setListStatSource('native'));

  describe('list_directory', () => {
    it('caps a page, says it cut, and counts every entry', async () => {
      const listing = await box.fs.listDirectory({ path: 'big' });

      expect(listing.entries).toHaveLength(MAX_LIST_ENTRIES);
      expect(listing).toMatchObject({
        truncated: true,
        total: MAX_LIST_ENTRIES + 5,
        totalExact: true,
      });
      expect(listing.cursor).toEqual(expect.any(String));
    });

    it('gives no cursor and no cut flag when everything fits', async () => {
      const listing = await box.fs.listDirectory({ path: 'small', recursive: true });

      expect(listing).toMatchObject({ total: 6, totalExact: true });
      expect(listing.truncated).toBeUndefined();
      expect(listing.cursor).toBeUndefined();
    });

    it('lists only the children without recursive, with names relative to the root', async () => {
      const listing = await box.fs.listDirectory({ path: 'small' });

      expect(listing).toEqual({
        entries: [
          {
            name: 'small/a-dir',
            type: 'directory',
            sizeBytes: expect.any(Number),
            lastModified: expect.any(String),
          },
          {
            name: 'small/inner',
            type: 'directory',
            sizeBytes: expect.any(Number),
            lastModified: expect.any(String),
          },
          { name: 'small/one.txt', type: 'file', sizeBytes: 5, lastModified: expect.any(String) },
        ],
        total: 3,
        totalExact: true,
      });
    });

    it('walks breadth-first: every entry of a level before any of the next, each in name order', async () => {
      const listing = await box.fs.listDirectory({ path: 'small', recursive: true });

      expect(names(listing)).toEqual([
        'small/a-dir',
        'small/inner',
        'small/one.txt',
        'small/a-dir/deeper',
        'small/inner/two.txt',
        'small/a-dir/deeper/three.txt',
      ]);
    });

    it('pages a 2500-entry tree with the cursor, every entry exactly once, in walk order', async () => {
      const whole = await box.fs.listDirectory({ path: 'wide', recursive: true });

      const pages = await everyPage({ path: 'wide', recursive: true });
      const paged = pages.flatMap(names);

      expect(whole.total).toBe(WIDE_TOTAL);
      expect(pages).toHaveLength(Math.ceil(WIDE_TOTAL / MAX_LIST_ENTRIES));
      expect(paged).toHaveLength(WIDE_TOTAL);
      expect(new Set(paged).size).toBe(WIDE_TOTAL);
      expect(paged.slice(0, MAX_LIST_ENTRIES)).toEqual(names(whole));
      expect(pages.map((page) => page.total)).toEqual(pages.map(() => WIDE_TOTAL));
      expect(pages.at(-1)?.truncated).toBeUndefined();
      // Breadth-first across pages too: depth never goes back down.
      const depths = paged.map((name) => name.split('/').length);
      expect(depths).toEqual([...depths].sort((a, b) => a - b));
    });

    it('pages a glob listing by the matches only', async () => {
      const pages = await everyPage({ path: 'wide', recursive: true, glob: '**/f0*.txt' });

      expect(pages.flatMap(names)).toHaveLength(WIDE_DIRECTORIES * 100);
      expect(pages.map((page) => page.total)).toEqual(pages.map(() => WIDE_DIRECTORIES * 100));
    });

    it('continues after the cursor entry even when that entry was deleted since', async () => {
      const { root } = box;
      // The sandbox is shared by both stat sources' runs: start from a fresh directory.
      await rm(path.join(root, 'shrinking'), { recursive: true, force: true });
      await mkdir(path.join(root, 'shrinking'));
      for (let index = 0; index < MAX_LIST_ENTRIES + 3; index += 1)
        await writeFile(path.join(root, 'shrinking', `${String(index).padStart(4, '0')}`), '');
      const first = await box.fs.listDirectory({ path: 'shrinking' });
      await rm(path.join(root, 'shrinking', '0999'));

      const next = await box.fs.listDirectory({ path: 'shrinking', cursor: first.cursor ?? '' });

      expect(names(next)).toEqual(['shrinking/1000', 'shrinking/1001', 'shrinking/1002']);
    });

    it('skips .git and node_modules by default, neither listed nor walked, and counts them', async () => {
      const listing = await box.fs.listDirectory({ path: 'repo', recursive: true });

      expect(names(listing)).toEqual(['repo/src', 'repo/src/main.ts']);
      expect(listing).toMatchObject({ total: 2, ignored: 2 });
    });

    it('lists .git and node_modules when asked with includeIgnored', async () => {
      const listing = await box.fs.listDirectory({
        path: 'repo',
        recursive: true,
        includeIgnored: true,
      });

      expect(names(listing)).toEqual([
        'repo/.git',
        'repo/node_modules',
        'repo/src',
        'repo/.git/HEAD',
        'repo/.git/objects',
        'repo/node_modules/pkg',
        'repo/src/main.ts',
        'repo/node_modules/pkg/index.js',
      ]);
      expect(listing.ignored).toBeUndefined();
    });

    it('lists an ignored directory named as the path', async () => {
      const listing = await box.fs.listDirectory({ path: 'repo/node_modules', recursive: true });

      expect(names(listing)).toEqual(['repo/node_modules/pkg', 'repo/node_modules/pkg/index.js']);
    });

    it('keeps floor entries invisible: not listed, not walked, not counted', async () => {
      const listing = await box.fs.listDirectory({
        path: 'floored',
        recursive: true,
        includeIgnored: true,
      });

      expect(names(listing)).toEqual(['floored/plain.txt']);
      expect(listing.total).toBe(1);
    });

    it.each([
      ['garbage', () => 'not-a-cursor'],
      [
        'an edited position',
        (cursor: string) => cursor.replace(/\.[^.]+\./, `.${b64('../../etc')}.`),
      ],
      ['an edited check', (cursor: string) => `${cursor.slice(0, -2)}AA`],
      ['another version', (cursor: string) => cursor.replace(/^l2\./, 'l9.')],
      ['an extra part', (cursor: string) => `${cursor}.x`],
    ])('refuses %s as a correctable invalid cursor', async (_case, forge) => {
      const { cursor } = await box.fs.listDirectory({ path: 'big' });

      const attempt = box.fs.listDirectory({ path: 'big', cursor: forge(cursor ?? '') });

      await expect(attempt).rejects.toMatchObject({
        code: 'tool_args_invalid',
        fields: ['cursor'],
        message: 'tool list_directory args invalid: cursor (invalid_cursor)',
      });
    });

    it.each([
      ['another path', { path: 'wide' }],
      ['another glob', { path: 'big', glob: '*.txt' }],
      ['recursive', { path: 'big', recursive: true }],
      ['includeIgnored', { path: 'big', includeIgnored: true }],
    ])('refuses a cursor from another listing (%s)', async (_case, request) => {
      const { cursor } = await box.fs.listDirectory({ path: 'big' });

      const attempt = box.fs.listDirectory({ ...request, cursor: cursor ?? '' });

      await expect(attempt).rejects.toMatchObject({
        code: 'tool_args_invalid',
        fields: ['cursor'],
      });
    });

    it('refuses a position with dot segments even under a valid check', async () => {
      const binding = listCursorBinding(path.join(box.root, 'small'), { path: 'small' });
      const cursor = encodeListCursor(['..', '..', 'etc'], binding);

      const attempt = box.fs.listDirectory({ path: 'small', cursor });

      await expect(attempt).rejects.toMatchObject({
        code: 'tool_args_invalid',
        fields: ['cursor'],
      });
    });

    it('lists the run spill directory in the default tier', async () => {
      const spilled = await box.host.outputStore?.spill('spilled', { maxBytes: 1, maxLines: 1 });

      const listing = await box.fs.listDirectory({ path: path.dirname(spilled?.ref ?? '') });

      expect(names(listing)).toContain(spilled?.ref);
    });
  });

  function b64(text: string): string {
    return Buffer.from(text).toString('base64url');
  }

  describe('list_directory while a walked directory is swapped for a symlink out of the root', () => {
    // Flips `tree/sub` between the real directory and a symlink to `outside/sub` until killed.
    const SWAPPER = `
      const { renameSync, symlinkSync, unlinkSync } = require('node:fs');
      const [root, outside] = process.argv.slice(1);
      let stop = false;
      process.on('SIGTERM', () => { stop = true; });
      const hold = () => { const until = process.hrtime.bigint() + 200000n; while (process.hrtime.bigint() < until); };
      process.stdout.write('ready');
      const loop = () => {
        for (let index = 0; index < 50 && !stop; index += 1) {
          renameSync(root + '/tree/sub', root + '/tree/.sub-real');
          symlinkSync(outside + '/sub', root + '/tree/sub');
          hold();
          unlinkSync(root + '/tree/sub');
          renameSync(root + '/tree/.sub-real', root + '/tree/sub');
          hold();
        }
        if (stop) process.exit(0);
        setImmediate(loop);
      };
      loop();
    `;
    const OUTSIDE_SIZE = 4321;
    let swapBox: Sandbox;

    beforeAll(async () => {
      swapBox = await createSandbox({}, async ({ root, outside }) => {
        await mkdir(path.join(root, 'tree/sub'), { recursive: true });
        await mkdir(path.join(outside, 'sub'));
        for (let file = 0; file < 200; file += 1) {
          const name = `f${String(file).padStart(3, '0')}.txt`;
          await writeFile(path.join(root, 'tree/sub', name), 'x');
          // Same names outside, but a size and a date no inside entry has.
          await writeFile(path.join(outside, 'sub', name), 'o'.repeat(OUTSIDE_SIZE));
          await utimes(
            path.join(outside, 'sub', name),
            new Date('2001-09-09'),
            new Date('2001-09-09'),
          );
        }
        await writeFile(path.join(outside, 'sub', 'outside-only.txt'), 'o'.repeat(OUTSIDE_SIZE));
      });
    });
    afterAll(() => swapBox.close());

    it('never lists an outside name, size or date: every entry is looked up through the walked descriptor', async () => {
      const child = spawn(process.execPath, ['-e', SWAPPER, swapBox.root, swapBox.outside], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      const seen = { listings: 0, withSub: 0, leaked: [] as string[] };
      try {
        const deadline = Date.now() + 3000;
        while (Date.now() < deadline) {
          const listing = await swapBox.fs.listDirectory({ path: 'tree', recursive: true });
          seen.listings += 1;
          if (listing.entries.some((entry) => entry.name.startsWith('tree/sub/')))
            seen.withSub += 1;
          for (const entry of listing.entries)
            if (
              entry.sizeBytes === OUTSIDE_SIZE ||
              entry.lastModified.startsWith('2001-') ||
              entry.name.includes('outside-only')
            )
              seen.leaked.push(`${entry.name} ${entry.sizeBytes} ${entry.lastModified}`);
        }
      } finally {
        if (child.exitCode === null) {
          const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
          child.kill('SIGTERM');
          await exited;
        }
      }

      expect(child.exitCode).toBe(0);
      expect(seen.leaked.slice(0, 5)).toEqual([]);
      // The race ran: the walk met the real directory (and listed it) in some listings.
      expect(seen.withSub).toBeGreaterThan(0);
      expect(seen.listings).toBeGreaterThan(seen.withSub);
    });
  });

  describe('list_directory of an extra root that holds the root', () => {
    it('names each entry as the jail does: relative below the root, its real path elsewhere', async () => {
      const outer = await createSandbox(
        ({ sandbox }) => ({ fsScope: 'project', extraRoots: [sandbox] }),
        async ({ root, outside }) => {
          await writeFile(path.join(root, 'inside.txt'), 'i');
          await writeFile(path.join(outside, 'note.txt'), 'n');
        },
      );
      try {
        // Names are asked of the jail once per directory where that gives the same answer: a
        // directory above the root holds the root itself, named `.`, not `<directory>/app`.
        const listing = await outer.fs.listDirectory({ path: outer.sandbox, recursive: true });

        expect(names(listing)).toEqual([
          '.',
          path.join(outer.sandbox, 'outside'),
          'inside.txt',
          path.join(outer.sandbox, 'outside/note.txt'),
        ]);
      } finally {
        await outer.close();
      }
    });
  });
});
