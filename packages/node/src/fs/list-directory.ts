import picomatch from 'picomatch';
import type {
  AbortSignalLike,
  DirectoryEntry,
  DirectoryListing,
  FsListRequest,
} from '@toolhost/core';
import { throwIfAborted, toFsError } from './fs-error.js';
import type { Jail } from './jail.js';
import { walkTree } from './walk-tree.js';

const TOOL_ID = 'list_directory';
/** Spec §4: the most entries one listing returns. */
export const MAX_LIST_ENTRIES = 1000;
/** The most entries one listing (or glob read) looks at before it stops and says it cut. */
export const MAX_SCANNED_ENTRIES = 100_000;

/** `list_directory`: a jailed, floor-filtered listing that never follows a symlinked directory. */
export function createListDirectory(jail: Jail) {
  return async function listDirectory(
    request: FsListRequest,
    signal?: AbortSignalLike,
  ): Promise<DirectoryListing> {
    try {
      throwIfAborted(TOOL_ID, signal);
      // Segment-aware: `*` never crosses a `/`; the glob matches names below the listed directory.
      const matches =
        request.glob === undefined ? undefined : picomatch(request.glob, { dot: true });
      const directory = await jail.openForRead(TOOL_ID, request.path, 'directory');
      const entries: DirectoryEntry[] = [];
      let truncated = false;
      let scanned = 0;
      try {
        await walkTree(jail, directory, {
          toolId: TOOL_ID,
          recursive: request.recursive === true,
          signal,
          visit(entry) {
            scanned += 1;
            // A glob that matches little would otherwise walk a huge tree to the end.
            if (scanned > MAX_SCANNED_ENTRIES) {
              truncated = true;
              return false;
            }
            if (matches !== undefined && !matches(entry.relative)) return true;
            if (entries.length === MAX_LIST_ENTRIES) {
              truncated = true;
              return false;
            }
            entries.push({
              name: jail.displayName(entry.path),
              type: entry.type,
              sizeBytes: entry.stats.size,
              lastModified: entry.stats.mtime.toISOString(),
            });
            return true;
          },
        });
      } finally {
        await directory.handle.close();
      }
      return truncated ? { entries, truncated } : { entries };
    } catch (error) {
      throw toFsError(TOOL_ID, error, false);
    }
  };
}
