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
      try {
        await walkTree(jail, directory, {
          toolId: TOOL_ID,
          recursive: request.recursive === true,
          signal,
          visit(entry) {
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
