import type { DirectoryEntry } from '@toolhost/core/host';
import type { PendingDirectory } from './open-chain.js';
import type { LevelEntry } from './walk-breadth-first.js';

/** A listed directory's identity: the one a later page reopens must be the same inode. */
export interface DirectoryIdentity {
  readonly dev: number;
  readonly ino: number;
}

/**
 * What one walk of a listing saw, kept so later pages slice it instead of walking again: the
 * matching entries after the walk's start position in walk order (names, readdir types and the
 * index of the directory holding each), and every directory they are in, by its components and
 * the dev/ino it had when listed. Names only: each page lstats its own entries afresh.
 */
export interface ListSnapshot {
  /** `listCursorBinding` of the listing: a snapshot answers that listing only. */
  readonly binding: string;
  /** The listed directory as it was opened: a page of this snapshot needs the same inode. */
  readonly start: DirectoryIdentity;
  readonly directories: readonly PendingDirectory[];
  readonly names: readonly string[];
  readonly types: readonly DirectoryEntry['type'][];
  readonly directoryOf: readonly number[];
  /** The walk's count of every matching entry, before its start position too. */
  readonly total: number;
  readonly totalExact: boolean;
  readonly ignored: number;
  /** Rough bytes held, for the store's budget. */
  readonly bytes: number;
}

// Per-entry and per-directory overheads of the arrays, on top of two bytes per code unit.
const ENTRY_BYTES = 40;
const DIRECTORY_BYTES = 120;

/** Collects a walk's matching entries into a `ListSnapshot` as the walk meets them. */
export function createSnapshotBuilder(binding: string, start: DirectoryIdentity) {
  const directories: PendingDirectory[] = [{ segments: [], seen: start }];
  const names: string[] = [];
  const types: DirectoryEntry['type'][] = [];
  const directoryOf: number[] = [];
  let bytes = DIRECTORY_BYTES;
  return {
    /** The walk enters a directory below the start: the entries offered next are in it. */
    enter(directory: PendingDirectory): void {
      directories.push(directory);
      bytes += DIRECTORY_BYTES + 2 * directory.segments.join('/').length;
    },
    /** Keeps a matching entry; returns its index in the snapshot. */
    add(entry: LevelEntry): number {
      names.push(entry.name);
      types.push(entry.type);
      directoryOf.push(directories.length - 1);
      bytes += ENTRY_BYTES + 2 * entry.name.length;
      return names.length - 1;
    },
    get length(): number {
      return names.length;
    },
    finish(counts: { total: number; totalExact: boolean; ignored: number }): ListSnapshot {
      return { binding, start, directories, names, types, directoryOf, ...counts, bytes };
    },
  };
}

/** The components below the listed directory of the snapshot's `index`-th entry. */
export function snapshotSegments(snapshot: ListSnapshot, index: number): readonly string[] {
  const directory = snapshot.directories[snapshot.directoryOf[index] ?? 0];
  return [...(directory?.segments ?? []), snapshot.names[index] ?? ''];
}
