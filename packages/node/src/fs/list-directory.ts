import { closeSync } from 'node:fs';
import path from 'node:path';
import type {
  AbortSignalLike,
  DirectoryEntry,
  DirectoryListing,
  FsListRequest,
} from '@toolhost/core/host';
import type { DirectoryRef } from './descriptor-path.js';
import { throwIfAborted, toFsError } from './fs-error.js';
import { isoTimestamp } from './iso-timestamp.js';
import type { Jail } from './jail.js';
import {
  comparePosition,
  decodeListCursor,
  encodeListCursor,
  listCursorBinding,
} from './list-cursor.js';
import { createSnapshotBuilder, snapshotSegments } from './list-snapshot.js';
import type { DirectoryIdentity, ListSnapshot } from './list-snapshot.js';
import { snapshotPage } from './list-snapshot-page.js';
import { createListSnapshotStore } from './list-snapshot-store.js';
import type { ListSnapshotStore } from './list-snapshot-store.js';
import { walkBreadthFirst } from './walk-breadth-first.js';
import type { LevelEntry } from './walk-breadth-first.js';
import { compileGlob } from './compile-glob.js';

const TOOL_ID = 'list_directory';
/** Spec §4: the most entries one listing (one page) returns. */
export const MAX_LIST_ENTRIES = 1000;
/**
 * The most entries one listing looks at past its cursor's position (or a glob read in all)
 * before it stops and says it cut; the cursor then continues past what it saw.
 */
export const MAX_SCANNED_ENTRIES = 100_000;
/**
 * Skipped (neither listed nor walked) unless asked for: a repository's `.git` or a
 * `node_modules` would otherwise spend a whole listing before the first source file.
 */
export const IGNORED_NAMES: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/**
 * The most entries one call walks in all, those before a cursor's position included: a resumed
 * walk skips up to its position, and this bounds what skipping costs.
 */
export const MAX_WALKED_ENTRIES = 10 * MAX_SCANNED_ENTRIES;

/**
 * `list_directory`: a jailed, floor-filtered, breadth-first listing that never follows a
 * symlinked directory, pages of `MAX_LIST_ENTRIES` with the total and a cursor for the next.
 * The first page walks (up to `MAX_SCANNED_ENTRIES` past its start) and keeps the matching
 * names in `snapshots`; later pages slice that snapshot and lstat only what they list, so paging
 * a whole listing costs one walk, not one per page. A walk that stopped at its cap, or a cursor
 * whose snapshot expired, resumes by walking again from the cursor's position.
 */
export function createListDirectory(
  jail: Jail,
  snapshots: ListSnapshotStore = createListSnapshotStore(),
) {
  return async function listDirectory(
    request: FsListRequest,
    signal?: AbortSignalLike,
  ): Promise<DirectoryListing> {
    try {
      throwIfAborted(TOOL_ID, signal);
      // Segment-aware: `*` never crosses a `/`; the glob matches names below the listed directory.
      const matches =
        request.glob === undefined ? undefined : await compileGlob(TOOL_ID, 'glob', request.glob);
      // Synchronous, a bare descriptor: a FileHandle's open and close each cost a thread-pool hop.
      const directory = jail.openDirectoryForRead(TOOL_ID, request.path);
      try {
        const binding = listCursorBinding(directory.path, request);
        const cursor =
          request.cursor === undefined ? undefined : decodeListCursor(request.cursor, binding);
        const displayName = createDisplayName(jail);
        const toDirectoryEntry = (entry: LevelEntry) => toEntry(displayName, entry);
        const start = { dev: directory.stats.dev, ino: directory.stats.ino };
        const kept = cursor?.snapshot && snapshots.get(cursor.snapshot.id, binding);
        if (cursor?.snapshot !== undefined && kept !== undefined) {
          const { offset } = cursor.snapshot;
          // The same directory (not one renamed into its place) and the place the cursor says.
          if (sameInode(kept.start, start) && resumesAt(kept, offset, cursor.position)) {
            const end = Math.min(offset + MAX_LIST_ENTRIES, kept.names.length);
            const entries = await snapshotPage(
              jail,
              directory,
              kept,
              offset,
              end,
              toDirectoryEntry,
            );
            const more = end < kept.names.length;
            const next = more
              ? encodeListCursor(snapshotSegments(kept, end - 1), binding, {
                  id: cursor.snapshot.id,
                  offset: end,
                })
              : !kept.totalExact && end > 0
                ? encodeListCursor(snapshotSegments(kept, end - 1), binding)
                : undefined;
            return shaped(
              { entries, total: kept.total, totalExact: kept.totalExact },
              next,
              more,
              kept.ignored,
            );
          }
        }
        const after = cursor?.position;
        // Naming an ignored directory as the path is asking for it.
        const skipIgnored =
          request.includeIgnored !== true && !namesIgnored(jail.displayName(directory.path));
        const page = createPage(toDirectoryEntry);
        const builder = createSnapshotBuilder(binding, start);
        // Where the next page starts in the snapshot: the first match the page had no room for.
        let pageEnd: number | undefined;
        let ignored = 0;
        let walked = 0;
        let scanned = 0;
        let totalExact = true;
        await walkBreadthFirst(jail, directory, {
          toolId: TOOL_ID,
          recursive: request.recursive === true,
          signal,
          enter: (pending) => builder.enter(pending),
          visit(entry) {
            if (skipIgnored && IGNORED_NAMES.has(entry.name)) {
              ignored += 1;
              return 'prune';
            }
            walked += 1;
            const past = after === undefined || comparePosition(entry, after) > 0;
            // Only entries past the position count toward the cap, so every page gets further.
            if (past) scanned += 1;
            if (scanned > MAX_SCANNED_ENTRIES || walked > MAX_WALKED_ENTRIES) {
              totalExact = false;
              return 'stop';
            }
            if (matches !== undefined && !matches(entry.relative)) return 'descend';
            if (!past) page.countBefore();
            else {
              const index = builder.add(entry);
              if (!page.offer(entry)) pageEnd ??= index;
            }
            return 'descend';
          },
        });
        const { entries, total, more, last } = page.result();
        let next: string | undefined;
        if (more && pageEnd !== undefined) {
          const snapshot = builder.finish({ total, totalExact, ignored });
          const id = snapshots.put(snapshot);
          const position = snapshotSegments(snapshot, pageEnd - 1);
          next = encodeListCursor(
            position,
            binding,
            id === undefined ? undefined : { id, offset: pageEnd },
          );
        } else if (!totalExact && last !== undefined) {
          // Stopped at the cap with room left: the next walk starts past this page's last entry.
          next = encodeListCursor(last, binding);
        }
        return shaped({ entries, total, totalExact }, next, more, ignored);
      } finally {
        closeSync(directory.fd);
      }
    } catch (error) {
      throw toFsError(TOOL_ID, error, false);
    }
  };
}

function shaped(
  listing: DirectoryListing,
  cursor: string | undefined,
  more: boolean,
  ignored: number,
): DirectoryListing {
  return {
    ...listing,
    ...(more || listing.totalExact === false ? { truncated: true } : {}),
    ...(cursor !== undefined ? { cursor } : {}),
    ...(ignored > 0 ? { ignored } : {}),
  };
}

function sameInode(left: DirectoryIdentity, right: DirectoryIdentity): boolean {
  return left.dev === right.dev && left.ino === right.ino;
}

// A cursor's offset must follow the entry its position names: an edited one is not trusted.
function resumesAt(snapshot: ListSnapshot, offset: number, position: readonly string[]): boolean {
  if (!(offset >= 1 && offset <= snapshot.names.length)) return false;
  const segments = snapshotSegments(snapshot, offset - 1);
  return segments.length === position.length && segments.every((part, i) => part === position[i]);
}

// Counts every matching entry and keeps the first page of those past the cursor's position.
function createPage(toDirectoryEntry: (entry: LevelEntry) => DirectoryEntry | undefined) {
  const entries: DirectoryEntry[] = [];
  let total = 0;
  let more = false;
  // The entry, not its components: an array per listed entry only to keep the last one.
  let last: LevelEntry | undefined;
  return {
    countBefore(): void {
      total += 1;
    },
    /** False when the page was already full. */
    offer(entry: LevelEntry): boolean {
      if (entries.length === MAX_LIST_ENTRIES) {
        total += 1;
        more = true;
        return false;
      }
      const listed = toDirectoryEntry(entry);
      // Gone since readdir: not listed, not counted.
      if (listed === undefined) return true;
      total += 1;
      entries.push(listed);
      last = entry;
      return true;
    },
    result() {
      return { entries, total, more, last: last?.segments };
    },
  };
}

// The listed entry's own lstat, through the open parent's descriptor; `undefined` once gone.
function toEntry(
  displayName: (entry: LevelEntry) => string,
  entry: LevelEntry,
): DirectoryEntry | undefined {
  const stats = entry.lstat();
  if (stats === undefined) return undefined;
  return {
    name: displayName(entry),
    type: stats.type,
    sizeBytes: stats.size,
    lastModified: isoTimestamp(stats.mtimeMs),
  };
}

/**
 * `jail.displayName` of an entry's real path, asked once per directory: below the root, an
 * entry's name is its directory's plus `/name`. Elsewhere (an extra root) the jail names each.
 */
function createDisplayName(jail: Jail): (entry: LevelEntry) => string {
  let directory: DirectoryRef | undefined;
  let prefix: string | undefined;
  return (entry) => {
    if (entry.directory !== directory) {
      directory = entry.directory;
      const shown = jail.displayName(directory.path);
      prefix = shown === '.' ? '' : path.isAbsolute(shown) ? undefined : `${shown}/`;
    }
    return prefix === undefined ? jail.displayName(entry.path) : prefix + entry.name;
  };
}

function namesIgnored(displayName: string): boolean {
  return displayName.split('/').some((segment) => IGNORED_NAMES.has(segment));
}
