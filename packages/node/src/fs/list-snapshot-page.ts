import type { DirectoryEntry } from '@toolhost/core/host';
import type { DirectoryRef } from './descriptor-path.js';
import { createLevelStats } from './entry-stats.js';
import type { Jail } from './jail.js';
import { listStatAddon } from './list-stat-source.js';
import type { ListSnapshot } from './list-snapshot.js';
import { createOpenChain } from './open-chain.js';
import { LevelEntry } from './walk-breadth-first.js';

/**
 * The snapshot's entries `[offset, end)` as listing entries, each lstat'ed afresh (never
 * following) through its directory, reopened one component at a time from the verified start
 * and refused unless it is the inode the walk listed. An entry gone since the walk, or in a
 * directory that was moved or replaced, is skipped: it costs what it lists, not the directory.
 */
export async function snapshotPage(
  jail: Jail,
  start: DirectoryRef,
  snapshot: ListSnapshot,
  offset: number,
  end: number,
  toEntry: (entry: LevelEntry) => DirectoryEntry | undefined,
): Promise<DirectoryEntry[]> {
  const addon = await listStatAddon();
  const chain = createOpenChain(jail, start);
  const entries: DirectoryEntry[] = [];
  try {
    let from = offset;
    while (from < end) {
      const directoryIndex = snapshot.directoryOf[from] ?? 0;
      let to = from + 1;
      while (to < end && snapshot.directoryOf[to] === directoryIndex) to += 1;
      const pending = snapshot.directories[directoryIndex];
      const directory =
        pending === undefined || pending.segments.length === 0 ? start : chain.open(pending);
      if (directory !== undefined && pending !== undefined) {
        const names = snapshot.names.slice(from, to);
        const level = createLevelStats(directory, names, addon);
        try {
          for (let index = 0; index < names.length; index += 1) {
            const type = snapshot.types[from + index] ?? 'other';
            const name = names[index] ?? '';
            const entry = new LevelEntry(
              directory,
              pending.segments,
              name,
              type,
              level.stat,
              index,
            );
            const listed = toEntry(entry);
            if (listed !== undefined) entries.push(listed);
          }
        } finally {
          level.seal();
        }
      }
      from = to;
    }
    return entries;
  } finally {
    chain.close();
  }
}
