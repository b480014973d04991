import { readdirSync } from 'node:fs';
import type { Dirent } from 'node:fs';
import { compareCodeUnits } from '@toolhost/core/host';
import { ownPath } from './descriptor-path.js';
import type { DirectoryRef } from './descriptor-path.js';
import { foldSegment, isFoldedOnReadFloor } from './floor.js';
import type { FloorContext } from './floor.js';

// Folded names kept per search: a tree repeats its names (`index.ts`, `src`) from directory to
// directory, and folding (two NFKC passes) was a tenth of a search. Bounded, so memory is flat.
const MAX_FOLDED_NAMES = 4096;

/** Lists verified directories for one search, folding each distinct name once. */
export interface SearchLister {
  /**
   * The entries of an open, verified directory in code-unit order, floor entries left out;
   * each entry's type is the kernel's (`readdir`, never following a symlink).
   */
  list(directory: DirectoryRef): Dirent[];
}

/**
 * The listing `visibleDirents` gives, read synchronously: one `getdents` of a directory already
 * open, where a thread-pool round trip per directory cost more than the call. The floor check is
 * the same `isFoldedOnReadFloor` on the folded directory plus the folded name.
 */
export function createSearchLister(floor: FloorContext): SearchLister {
  const folded = new Map<string, string>();
  const fold = (name: string): string => {
    let segment = folded.get(name);
    if (segment === undefined) {
      if (folded.size >= MAX_FOLDED_NAMES) folded.clear();
      segment = foldSegment(name);
      folded.set(name, segment);
    }
    return segment;
  };
  return {
    list(directory) {
      const dirents = readdirSync(ownPath(directory), { withFileTypes: true });
      // `foldPath`'s split, each segment folded through the cache.
      const segments = directory.path
        .split(/[/\\]+/)
        .filter((segment) => segment !== '')
        .map(fold);
      const last = segments.length;
      const visible = dirents.filter((dirent) => {
        segments[last] = fold(dirent.name);
        return !isFoldedOnReadFloor(segments, floor);
      });
      return visible.sort((a, b) => compareCodeUnits(a.name, b.name));
    },
  };
}
