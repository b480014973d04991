import type { Stats } from 'node:fs';
import { constants, lstatSync } from 'node:fs';
import type { DirectoryEntry } from '@toolhost/core/host';
import type { FsAtAddon } from '@toolhost/fs-at';
import { childPath } from './descriptor-path.js';
import type { DirectoryRef } from './descriptor-path.js';
import { typeOf } from './walk-tree.js';

/** What a listing and its walk read of an entry's lstat (never following a symlink). */
export interface EntryStats {
  readonly type: DirectoryEntry['type'];
  readonly size: number;
  readonly mtimeMs: number;
  readonly dev: number;
  readonly ino: number;
  readonly nlink: number;
}

/** Lstats the `index`-th name of one open directory's listing; `undefined` once it is gone. */
export type LevelStat = (index: number) => EntryStats | undefined;

/** A level's `stat`, and `seal` for when its directory may be closed (and its number reused). */
export interface LevelStats {
  readonly stat: LevelStat;
  readonly seal: () => void;
}

/**
 * `createLevelStat`, refusing once sealed: the descriptor's number may then name another file,
 * and a lookup through it would answer for that one.
 */
export function createLevelStats(
  directory: DirectoryRef,
  names: readonly string[],
  addon: FsAtAddon | undefined,
): LevelStats {
  const stat = createLevelStat(directory, names, addon);
  let sealed = false;
  return {
    stat(index) {
      if (sealed) throw new Error('toolhost: an entry was read after its directory was left');
      return stat(index);
    },
    seal() {
      sealed = true;
    },
  };
}

// A lookup's failure other than ENOENT, thrown when its entry is asked for (as `lstatSync` would).
class LookupFailure {
  constructor(readonly error: unknown) {}
}
type Looked = EntryStats | undefined | LookupFailure;
type LookUp = (start: number, end: number) => Looked[];

// A batch doubles while the entries are asked for in order (a listing shows each) and is one
// entry when asked for out of order (a count that only walks into a directory): at most twice
// the lookups asked for. Both sources batch alike, so a race lands the same on either.
const MAX_BATCH = 128;
const ENOENT = 2;

/**
 * The lstat of the names of `directory`, each relative to its descriptor: through the addon's
 * `statJoined` (`fstatat`, a batch per call), or `lstatSync` through procfs without it.
 */
export function createLevelStat(
  directory: DirectoryRef,
  names: readonly string[],
  addon: FsAtAddon | undefined,
): LevelStat {
  const lookUp =
    addon === undefined ? nodeLookUp(directory, names) : nativeLookUp(directory, names, addon);
  let batch: Looked[] = [];
  let start = 0;
  let size = 1;
  return (index) => {
    // Out of range: `childPath` refuses the empty name.
    if (!(index >= 0 && index < names.length)) return nodeEntryStats(directory, '');
    const offset = index - start;
    if (offset < 0 || offset >= batch.length) {
      size = offset === batch.length ? Math.min(size * 2, MAX_BATCH) : 1;
      start = index;
      batch = lookUp(index, Math.min(index + size, names.length));
    }
    const looked = batch[index - start];
    if (looked instanceof LookupFailure) throw looked.error;
    return looked;
  };
}

function nodeLookUp(directory: DirectoryRef, names: readonly string[]): LookUp {
  return (start, end) => {
    const looked: Looked[] = [];
    for (let index = start; index < end; index += 1)
      looked.push(lookUpByNode(directory, names[index] ?? ''));
    return looked;
  };
}

function nativeLookUp(directory: DirectoryRef, names: readonly string[], addon: FsAtAddon): LookUp {
  const { slots, status, mode, size, mtimeSec, mtimeNsec, ino, dev, nlink } = addon.stat;
  const out = new Float64Array(slots * Math.min(MAX_BATCH, names.length));
  // The level's names cross into C as one string, joined once: not one conversion per name.
  let joined: string | undefined;
  return (start, end) => {
    joined ??= names.join('\0');
    addon.statJoined(directory.fd, joined, names.length, start, end, out);
    const looked: Looked[] = [];
    for (let index = start, at = 0; index < end; index += 1, at += slots) {
      const failed = out[at + status];
      if (failed === -ENOENT) looked.push(undefined);
      // A refused name is what `childPath` throws for; any other failure (EACCES, …) is asked
      // of Node again, so it gives the error (or the stats) the Node source would.
      else if (failed !== 0) looked.push(lookUpByNode(directory, names[index] ?? ''));
      else
        looked.push({
          type: typeOfMode(out[at + mode] ?? 0),
          size: out[at + size] ?? 0,
          // Node's own formula for `mtimeMs`, so both sources render the same timestamp.
          mtimeMs: (out[at + mtimeSec] ?? 0) * 1e3 + (out[at + mtimeNsec] ?? 0) / 1e6,
          dev: out[at + dev] ?? 0,
          ino: out[at + ino] ?? 0,
          nlink: out[at + nlink] ?? 0,
        });
    }
    return looked;
  };
}

function lookUpByNode(directory: DirectoryRef, name: string): Looked {
  try {
    return nodeEntryStats(directory, name);
  } catch (error) {
    return new LookupFailure(error);
  }
}

function nodeEntryStats(directory: DirectoryRef, name: string): EntryStats | undefined {
  // Synchronous: one name in an already-open directory, answered from the dentry cache.
  const stats = lstatSync(childPath(directory, name), { throwIfNoEntry: false });
  return stats === undefined ? undefined : fromNodeStats(stats);
}

function fromNodeStats(stats: Stats): EntryStats {
  const { size, mtimeMs, dev, ino, nlink } = stats;
  return { type: typeOf(stats), size, mtimeMs, dev, ino, nlink };
}

// `typeOf` for a raw `st_mode`, in its order: the same tests `Stats` makes.
function typeOfMode(mode: number): DirectoryEntry['type'] {
  const format = mode & constants.S_IFMT;
  if (format === constants.S_IFLNK) return 'symlink';
  if (format === constants.S_IFDIR) return 'directory';
  if (format === constants.S_IFREG) return 'file';
  return 'other';
}
