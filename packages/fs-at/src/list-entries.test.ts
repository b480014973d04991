import {
  closeSync,
  constants,
  mkdirSync,
  openSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FS_AT_ENTRY, loadFsAt } from './index.js';
import type { FsAtAddon } from './index.js';

// `listEntries` as `[name, type]` pairs, whichever shape its names came in.
function pairsOf(listed: ReturnType<FsAtAddon['listEntries']>): [string, number][] {
  if (typeof listed === 'number') throw new Error(`listEntries failed: ${listed}`);
  const [names, types] = listed;
  const list = typeof names === 'string' ? (types.length === 0 ? [] : names.split('\0')) : names;
  expect(list).toHaveLength(types.length);
  return list.map((name, index) => [name, types.charCodeAt(index) - 0x30]);
}

// `readEntries`' pairs, in its (the kernel's) order.
function readPairs(addon: FsAtAddon, dirfd: number): [string, number][] {
  const read = addon.readEntries(dirfd);
  if (typeof read === 'number') throw new Error(`readEntries failed: ${read}`);
  const pairs: [string, number][] = [];
  for (let slot = 0; slot < read.length; slot += 2)
    pairs.push([String(read[slot]), Number(read[slot + 1])]);
  return pairs;
}

describe.runIf(process.platform === 'linux')('listEntries', () => {
  let addon: FsAtAddon;
  let base: string;
  const opened: number[] = [];

  // A fresh directory holding `files` (a name ending in `/` is made a directory), open.
  const directoryWith = (name: string, files: readonly (string | Buffer)[]): number => {
    const where = path.join(base, name);
    mkdirSync(where);
    for (const file of files) {
      const text = typeof file === 'string' ? file : file.toString('latin1');
      if (text.endsWith('/')) mkdirSync(path.join(where, text.slice(0, -1)));
      else
        writeFileSync(
          typeof file === 'string'
            ? path.join(where, file)
            : Buffer.concat([Buffer.from(`${where}/`), file]),
          'x',
        );
    }
    const dirfd = openSync(where, constants.O_RDONLY | constants.O_DIRECTORY);
    opened.push(dirfd);
    return dirfd;
  };

  beforeAll(async () => {
    const loaded = loadFsAt();
    if (loaded === undefined) throw new Error('fs-at: addon not built');
    addon = loaded;
    base = await mkdtemp(path.join(tmpdir(), 'toolhost-fs-at-list-'));
  });
  afterAll(async () => {
    for (const dirfd of opened) closeSync(dirfd);
    await rm(base, { recursive: true, force: true });
  });

  it('gives ASCII names joined, in code-unit order, with the types readEntries gives', () => {
    const names = ['b.txt', 'B.txt', 'a', 'a.b', 'a-b', 'Z', '_x', '~y', 'sub/', '.hidden'];
    const dirfd = directoryWith('ascii', names);
    symlinkSync(base, path.join(base, 'ascii', 'link'));
    const listed = addon.listEntries(dirfd);

    expect(typeof listed !== 'number' && typeof listed[0]).toBe('string');
    const pairs = pairsOf(listed);
    const sorted = [...pairs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    expect(pairs).toEqual(sorted);
    expect(new Map(pairs)).toEqual(new Map(readPairs(addon, dirfd)));
    expect(new Map(pairs).get('sub')).toBe(FS_AT_ENTRY.directory);
    expect(new Map(pairs).get('link')).toBe(FS_AT_ENTRY.symlink);
  });

  it('keeps the kernel order, as an array, once a name is not ASCII (or not UTF-8)', () => {
    const dirfd = directoryWith('unicode', [
      'é.txt',
      'plain.txt',
      '\u{1f600}',
      Buffer.from([0x66, 0xff, 0x2e, 0x74]),
      Buffer.from([0x66, 0xfe, 0x2e, 0x74]),
    ]);
    const listed = addon.listEntries(dirfd);

    expect(typeof listed !== 'number' && Array.isArray(listed[0])).toBe(true);
    // Two names read as the same string (U+FFFD): the order between them is the kernel's.
    expect(pairsOf(listed)).toEqual(readPairs(addon, dirfd));
    expect(pairsOf(listed).filter(([name]) => name === 'f\ufffd.t')).toHaveLength(2);
  });

  it('gives an empty directory as no names', () => {
    expect(pairsOf(addon.listEntries(directoryWith('empty', [])))).toEqual([]);
  });

  it('gives -errno for a descriptor that is not a directory, a TypeError for a bad one', () => {
    writeFileSync(path.join(base, 'file.txt'), 'x');
    const filefd = openSync(path.join(base, 'file.txt'), constants.O_RDONLY);
    try {
      expect(addon.listEntries(filefd)).toBe(-20); // ENOTDIR
    } finally {
      closeSync(filefd);
    }
    expect(() => addon.listEntries(-100)).toThrow(TypeError);
    expect(() => Reflect.apply(addon.listEntries, addon, ['3'])).toThrow(TypeError);
  });

  it('leaves the descriptor count unchanged after 2 000 listings of a wide directory', () => {
    const dirfd = directoryWith(
      'wide',
      Array.from({ length: 300 }, (_unused, index) => `n${(index * 7919) % 1000}`),
    );
    const before = readdirSync('/proc/self/fd').length;
    for (let round = 0; round < 2000; round += 1) addon.listEntries(dirfd);

    expect(readdirSync('/proc/self/fd').length).toBe(before);
    expect(pairsOf(addon.listEntries(dirfd))).toHaveLength(300);
  });
});
