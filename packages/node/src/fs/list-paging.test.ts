import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { DirectoryListing, FsListRequest } from '@toolhost/core/host';
import { decodeListCursor, encodeListCursor, listCursorBinding } from './list-cursor.js';
import { createListDirectory, MAX_LIST_ENTRIES, MAX_SCANNED_ENTRIES } from './list-directory.js';
import { createListSnapshotStore, DEFAULT_LIST_SNAPSHOT_LIMITS } from './list-snapshot-store.js';
import { createSandbox, createSandboxJail } from './test-support/sandbox.js';
import type { Sandbox } from './test-support/sandbox.js';

type List = (request: FsListRequest) => Promise<DirectoryListing>;

async function everyPage(list: List, request: FsListRequest): Promise<DirectoryListing[]> {
  const pages = [await list(request)];
  for (let cursor = pages[0]?.cursor; cursor !== undefined; cursor = pages.at(-1)?.cursor)
    pages.push(await list({ ...request, cursor }));
  return pages;
}

function names(pages: readonly DirectoryListing[]): string[] {
  return pages.flatMap((page) => page.entries.map((entry) => entry.name));
}

function numbered(count: number, prefix = ''): string[] {
  return Array.from(
    { length: count },
    (_unused, index) => `${prefix}${String(index).padStart(6, '0')}`,
  );
}

let box: Sandbox;
// One more than a walk looks at: the entry today's listing could never reach.
const HUGE = MAX_SCANNED_ENTRIES + 1;

beforeAll(async () => {
  box = await createSandbox({}, async ({ root }) => {
    mkdirSync(path.join(root, 'huge'));
    // Synchronous and empty: 100 001 creates take a few seconds this way.
    for (const name of numbered(HUGE)) writeFileSync(path.join(root, 'huge', name), '');
  });
}, 120_000);
afterAll(() => box.close());

async function freshDirectory(name: string, count: number): Promise<void> {
  await rm(path.join(box.root, name), { recursive: true, force: true });
  await mkdir(path.join(box.root, name));
  for (const file of numbered(count)) await writeFile(path.join(box.root, name, file), 'x');
}

describe('list_directory paging', () => {
  it('lists a directory of 100 001 entries completely across pages, every name exactly once', async () => {
    const pages = await everyPage((request) => box.fs.listDirectory(request), { path: 'huge' });
    const listed = names(pages);

    expect(listed).toHaveLength(HUGE);
    expect(new Set(listed).size).toBe(HUGE);
    expect(listed).toEqual(numbered(HUGE, 'huge/'));
    expect(listed.at(-1)).toBe(`huge/${String(HUGE - 1).padStart(6, '0')}`);
    expect(pages).toHaveLength(Math.ceil(HUGE / MAX_LIST_ENTRIES));
    expect(pages.at(-1)?.cursor).toBeUndefined();
  }, 120_000);

  it('serves later pages from the first page’s snapshot: a name added since is not listed, one removed is skipped', async () => {
    await freshDirectory('changing', 2 * MAX_LIST_ENTRIES + 10);
    const list: List = (request) => box.fs.listDirectory(request);
    const first = await list({ path: 'changing' });
    // After page 1: one name added in the middle of what is left, one left to list removed.
    await writeFile(path.join(box.root, 'changing', '001500-added'), '');
    await rm(path.join(box.root, 'changing', '001600'));

    const rest = [await list({ path: 'changing', cursor: first.cursor ?? '' })];
    for (let cursor = rest[0]?.cursor; cursor !== undefined; cursor = rest.at(-1)?.cursor)
      rest.push(await list({ path: 'changing', cursor }));
    const listed = names([first, ...rest]);

    expect(listed).not.toContain('changing/001500-added');
    expect(listed).not.toContain('changing/001600');
    expect(listed).toHaveLength(2 * MAX_LIST_ENTRIES + 9);
    expect(new Set(listed).size).toBe(listed.length);
    // The total is the first page's: the snapshot's count.
    expect(rest.map((page) => page.total)).toEqual(rest.map(() => 2 * MAX_LIST_ENTRIES + 10));
    // A fresh listing sees the change.
    const fresh = names(await everyPage(list, { path: 'changing' }));
    expect(fresh).toContain('changing/001500-added');
    expect(fresh).not.toContain('changing/001600');
  });

  it('falls back to a stateless resume when the snapshot has expired: still every name once', async () => {
    await freshDirectory('expiring', 3 * MAX_LIST_ENTRIES + 1);
    let now = 0;
    const store = createListSnapshotStore({ ...DEFAULT_LIST_SNAPSHOT_LIMITS, now: () => now });
    const jail = await createSandboxJail(box);
    onTestFinished(() => jail.close());
    const list = createListDirectory(jail, store);
    const first = await list({ path: 'expiring' });
    now += DEFAULT_LIST_SNAPSHOT_LIMITS.ttlMs;
    // Added after page 1: with the snapshot gone, the re-walk sees it (today's behaviour).
    await writeFile(path.join(box.root, 'expiring', '002500-added'), '');

    const rest = await everyPage(list, { path: 'expiring', cursor: first.cursor ?? '' });
    const listed = names([first, ...rest]);

    expect(store.size).toBe(1);
    expect(listed).toContain('expiring/002500-added');
    expect(listed).toHaveLength(3 * MAX_LIST_ENTRIES + 2);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('never serves one directory’s snapshot to another, even under a re-signed cursor', async () => {
    await freshDirectory('first', MAX_LIST_ENTRIES + 5);
    await freshDirectory('second', MAX_LIST_ENTRIES + 5);
    const jail = await createSandboxJail(box);
    onTestFinished(() => jail.close());
    const list = createListDirectory(jail);
    const { cursor } = await list({ path: 'first' });
    const place = decodeListCursor(
      cursor ?? '',
      listCursorBinding(path.join(box.root, 'first'), { path: 'first' }),
    );
    // The check is a digest anyone can compute: the id is what a forger would reuse.
    const forged = encodeListCursor(
      place.position,
      listCursorBinding(path.join(box.root, 'second'), { path: 'second' }),
      place.snapshot,
    );

    const page = await list({ path: 'second', cursor: forged });

    expect(place.snapshot).toBeDefined();
    expect(page.entries.map((entry) => entry.name)).toEqual(
      numbered(MAX_LIST_ENTRIES + 5, 'second/').slice(MAX_LIST_ENTRIES),
    );
  });

  it('does not slice a snapshot for a directory replaced at the same path since page 1', async () => {
    await freshDirectory('replaced', MAX_LIST_ENTRIES + 5);
    const list: List = (request) => box.fs.listDirectory(request);
    const { cursor } = await list({ path: 'replaced' });
    await rename(path.join(box.root, 'replaced'), path.join(box.root, 'replaced-old'));
    await mkdir(path.join(box.root, 'replaced'));
    await writeFile(path.join(box.root, 'replaced', '999999-new'), '');

    const page = await list({ path: 'replaced', cursor: cursor ?? '' });

    // Walked afresh from the cursor's position: the new directory's entries, not the snapshot's.
    expect(page.entries.map((entry) => entry.name)).toEqual(['replaced/999999-new']);
    await rm(path.join(box.root, 'replaced-old'), { recursive: true });
  });

  it('pages a recursive listing from its snapshot, skipping a subdirectory replaced since', async () => {
    await rm(path.join(box.root, 'tree'), { recursive: true, force: true });
    for (let directory = 0; directory < 5; directory += 1) {
      const inside = path.join(box.root, 'tree', `d${directory}`);
      await mkdir(inside, { recursive: true });
      for (const file of numbered(600)) await writeFile(path.join(inside, file), '');
    }
    const list: List = (request) => box.fs.listDirectory(request);
    const request = { path: 'tree', recursive: true };
    const whole = names(await everyPage(list, request));
    const first = await list(request);
    // d4's entries are all on later pages: swap it for another directory under the same name.
    await rename(path.join(box.root, 'tree/d4'), path.join(box.root, 'd4-moved'));
    await mkdir(path.join(box.root, 'tree/d4'));
    await writeFile(path.join(box.root, 'tree/d4/impostor'), '');

    const rest = await everyPage(list, { ...request, cursor: first.cursor ?? '' });
    const listed = names([first, ...rest]);

    expect(whole).toHaveLength(5 + 5 * 600);
    expect(new Set(whole).size).toBe(whole.length);
    expect(listed).toEqual(whole.filter((name) => !name.startsWith('tree/d4/')));
    expect(listed).not.toContain('tree/d4/impostor');
    await rm(path.join(box.root, 'd4-moved'), { recursive: true });
  });

  it('pages a glob listing by the matches, through the snapshot', async () => {
    const request = { path: 'huge', glob: '*5' };
    const pages = await everyPage((r) => box.fs.listDirectory(r), request);

    expect(names(pages)).toEqual(numbered(HUGE, 'huge/').filter((name) => name.endsWith('5')));
  });
});
