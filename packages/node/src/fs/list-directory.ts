import { closeSync } from 'node:fs';
import path from 'node:path';
import type {
  AbortSignalLike,
  DirectoryEntry,
  DirectoryListing,
  FsListRequest,
} from '@toolhost/core';
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
import { walkBreadthFirst } from './walk-breadth-first.js';
import type { LevelEntry } from './walk-breadth-first.js';
import { compileGlob } from './compile-glob.js';

const TOOL_ID = 'list_directory';
/** Spec §4: the most entries one listing (one page) returns. */
export const MAX_LIST_ENTRIES = 1000;
/** The most entries one listing (or glob read) looks at before it stops and says it cut. */
export const MAX_SCANNED_ENTRIES = 100_000;
/**
 * Skipped (neither listed nor walked) unless asked for: a repository's `.git` or a
 * `node_modules` would otherwise spend a whole listing before the first source file.
 */
export const IGNORED_NAMES: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/**
 * `list_directory`: a jailed, floor-filtered, breadth-first listing that never follows a
 * symlinked directory, pages of `MAX_LIST_ENTRIES` with the total and a cursor for the next.
 */
export function createListDirectory(jail: Jail) {
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
        const after =
          request.cursor === undefined ? undefined : decodeListCursor(request.cursor, binding);
        // Naming an ignored directory as the path is asking for it.
        const skipIgnored =
          request.includeIgnored !== true && !namesIgnored(jail.displayName(directory.path));
        const displayName = createDisplayName(jail);
        const page = createPage(after, (entry) => toEntry(displayName, entry));
        let ignored = 0;
        let scanned = 0;
        let totalExact = true;
        await walkBreadthFirst(jail, directory, {
          toolId: TOOL_ID,
          recursive: request.recursive === true,
          signal,
          visit(entry) {
            if (skipIgnored && IGNORED_NAMES.has(entry.name)) {
              ignored += 1;
              return 'prune';
            }
            scanned += 1;
            // Every page walks the whole tree for its total: this bounds what one call looks at.
            if (scanned > MAX_SCANNED_ENTRIES) {
              totalExact = false;
              return 'stop';
            }
            if (matches === undefined || matches(entry.relative)) page.offer(entry);
            return 'descend';
          },
        });
        const { entries, total, more, last } = page.result();
        const listing: DirectoryListing = { entries, total, totalExact };
        return {
          ...listing,
          ...(more || !totalExact ? { truncated: true } : {}),
          ...(more && last !== undefined ? { cursor: encodeListCursor(last, binding) } : {}),
          ...(ignored > 0 ? { ignored } : {}),
        };
      } finally {
        closeSync(directory.fd);
      }
    } catch (error) {
      throw toFsError(TOOL_ID, error, false);
    }
  };
}

// Counts every matching entry and keeps the first page after the cursor's position.
function createPage(
  after: readonly string[] | undefined,
  toDirectoryEntry: (entry: LevelEntry) => DirectoryEntry | undefined,
) {
  const entries: DirectoryEntry[] = [];
  let total = 0;
  let more = false;
  // The entry, not its components: an array per listed entry only to keep the last one.
  let last: LevelEntry | undefined;
  return {
    offer(entry: LevelEntry): void {
      if (after !== undefined && comparePosition(entry, after) <= 0) {
        total += 1;
        return;
      }
      if (entries.length === MAX_LIST_ENTRIES) {
        total += 1;
        more = true;
        return;
      }
      const listed = toDirectoryEntry(entry);
      // Gone since readdir: not listed, not counted.
      if (listed === undefined) return;
      total += 1;
      entries.push(listed);
      last = entry;
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
