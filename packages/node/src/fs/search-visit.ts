// The readers' loops over a directory's files: Node's one at a time, the addon's in batches.
import type { FsAtAddon } from '@toolhost/fs-at';
import type { DirectoryRef } from './descriptor-path.js';
import { readChildFile, type ChildFileRead } from './open-child-file.js';
import type { SearchPace } from './search-pace.js';

// One native batch: at most this many files and (past its first file) this many bytes, so a
// batch stays far below the 10 ms turn and reads little ahead of a bound that stops the search.
const BATCH_FILES = 64;
const BATCH_BYTES = 256 * 1024;

/** What a reader loop needs of the search it feeds; a `false` from a scan stops the search. */
export interface SearchVisitSetup {
  readonly pace: SearchPace;
  /** The search's one read buffer, `maxFileBytes` long: a file (or a batch) lands in it. */
  readonly buffer: Buffer;
  readonly maxFileBytes: number;
  /** Records the bound the search has met by `now` as its stop; true when there is one. */
  readonly stopsAt: (now: number) => boolean;
  /** Scans what `readChildFile` read into the buffer. */
  readonly scanRead: (read: ChildFileRead, relative: string | undefined) => boolean;
  /** Scans one file's bytes, already read. */
  readonly scanBytes: (bytes: Buffer, relative: string | undefined) => boolean;
  /** Counts a file skipped as larger than `maxFileBytes`. */
  readonly countTooLarge: () => void;
}

/** Reads and scans `names` (at `relatives` below the start); false once the search stops. */
export type SearchVisitRun = (
  directory: DirectoryRef,
  names: readonly string[],
  relatives: readonly string[],
) => boolean | Promise<boolean>;

// One directory's files as the walk hands them over, read from an index on.
interface DirectoryFiles {
  readonly directory: DirectoryRef;
  readonly names: readonly string[];
  readonly relatives: readonly string[];
}

/** Node's path: a file at a time, the bounds and the pace checked before each. */
export function visitEachFile(setup: SearchVisitSetup): SearchVisitRun {
  const { pace, buffer, stopsAt, scanRead } = setup;

  const visitEach = (files: DirectoryFiles, from: number): boolean | Promise<boolean> => {
    const { directory, names, relatives } = files;
    for (let index = from; index < names.length; index += 1) {
      const now = performance.now();
      if (stopsAt(now)) return false;
      if (pace.due(now)) return resumeEach(files, index);
      const read = readChildFile(directory, names[index] ?? '', buffer);
      if (!scanRead(read, relatives[index])) return false;
    }
    return true;
  };

  const resumeEach = async (files: DirectoryFiles, index: number): Promise<boolean> => {
    await pace.pause();
    const read = readChildFile(files.directory, files.names[index] ?? '', buffer);
    if (!scanRead(read, files.relatives[index])) return false;
    return visitEach(files, index + 1);
  };

  return (directory, names, relatives) => visitEach({ directory, names, relatives }, 0);
}

/**
 * The addon's path: a batch of files a call, the pace checked between batches, the bounds
 * before each file as on Node's path (what a bound stops is read but never scanned).
 */
export function visitFileBatches(addon: FsAtAddon, setup: SearchVisitSetup): SearchVisitRun {
  const { pace, buffer, maxFileBytes, stopsAt, scanBytes, countTooLarge } = setup;
  // Where each file of a native batch landed in `buffer`: offset, then length or status.
  const slots = new Int32Array(2 * BATCH_FILES);
  const batchBytes = Math.min(buffer.length, BATCH_BYTES);

  // What the addon said of one file: the same three outcomes as `readChildFile`'s.
  const scanSlot = (slot: number, relative: string): boolean => {
    const status = slots[2 * slot + 1] ?? addon.status.badName;
    if (status === addon.status.tooLarge) {
      countTooLarge();
      return true;
    }
    // Not regular, a hard link, a bad name, a symlink (ELOOP), gone: refused, silently.
    if (status < 0) return true;
    const offset = slots[2 * slot] ?? 0;
    return scanBytes(buffer.subarray(offset, offset + status), relative);
  };

  const visitBatches = (files: DirectoryFiles, from: number): boolean | Promise<boolean> => {
    const { directory, names, relatives } = files;
    let index = from;
    while (index < names.length) {
      if (pace.due()) return resumeBatches(files, index);
      const end = Math.min(names.length, index + BATCH_FILES);
      const cap = maxFileBytes;
      const stop = addon.readFiles(directory.fd, names, index, end, buffer, cap, batchBytes, slots);
      for (let slot = 0; index + slot < stop; slot += 1) {
        if (stopsAt(performance.now())) return false;
        if (!scanSlot(slot, relatives[index + slot] ?? '')) return false;
      }
      index = stop;
    }
    return true;
  };

  const resumeBatches = async (files: DirectoryFiles, index: number): Promise<boolean> => {
    await pace.pause();
    return visitBatches(files, index);
  };

  return (directory, names, relatives) => visitBatches({ directory, names, relatives }, 0);
}
