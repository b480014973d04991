import type { Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { compareCodeUnits } from '@toolhost/core';
import type { AbortSignalLike, DirectoryEntry, ToolId } from '@toolhost/core';
import { childPath, ownPath } from './descriptor-path.js';
import type { DirectoryRef } from './descriptor-path.js';
import { throwIfAborted } from './fs-error.js';
import { isOnReadFloor } from './floor.js';
import type { Jail } from './jail.js';

/** One entry met by `walkTree`; `relative` is below the start directory, `/`-separated. */
export interface TreeEntry {
  readonly path: string;
  readonly relative: string;
  readonly type: DirectoryEntry['type'];
  readonly stats: Stats;
}

/** How far `walkTree` goes and what it does with each entry. */
export interface WalkTreeOptions {
  readonly toolId: ToolId;
  readonly recursive: boolean;
  /** Return false to stop the walk. */
  readonly visit: (entry: TreeEntry) => boolean;
  readonly signal?: AbortSignalLike | undefined;
}

// Entries are stat'ed this many at a time: enough to keep the thread pool busy, few enough that a
// walk that stops early has not stat'ed a whole huge directory.
const STAT_BATCH = 64;

/**
 * Walks a verified directory depth-first in name order. Floor entries are silently omitted and
 * never descended; a symlinked directory is reported as a symlink and never followed; each
 * subdirectory is opened relative to its parent's descriptor and verified. Resolves false when
 * `visit` stopped it.
 */
export async function walkTree(
  jail: Jail,
  start: DirectoryRef,
  options: WalkTreeOptions,
): Promise<boolean> {
  return walkDirectory(jail, start, '', options);
}

async function walkDirectory(
  jail: Jail,
  directory: DirectoryRef,
  prefix: string,
  options: WalkTreeOptions,
): Promise<boolean> {
  throwIfAborted(options.toolId, options.signal);
  const names = (await readdir(ownPath(directory))).sort(compareCodeUnits);
  const visible = names.filter(
    (name) => !isOnReadFloor(path.join(directory.path, name), jail.floor),
  );
  for (let offset = 0; offset < visible.length; offset += STAT_BATCH) {
    const batch = visible.slice(offset, offset + STAT_BATCH);
    const stats = await Promise.all(
      batch.map((name) => lstat(childPath(directory, name)).catch(() => undefined)),
    );
    for (const [index, name] of batch.entries()) {
      const entryStats = stats[index];
      // Gone since readdir: nothing to report.
      if (entryStats === undefined) continue;
      const entry: TreeEntry = {
        path: path.join(directory.path, name),
        relative: prefix + name,
        type: typeOf(entryStats),
        stats: entryStats,
      };
      if (!options.visit(entry)) return false;
      if (entry.type !== 'directory' || !options.recursive) continue;
      const child = await jail.openChildDirectory(directory, name);
      if (child === undefined) continue;
      try {
        if (!(await walkDirectory(jail, child, `${entry.relative}/`, options))) return false;
      } finally {
        await child.handle.close();
      }
    }
  }
  return true;
}

function typeOf(stats: Stats): DirectoryEntry['type'] {
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isDirectory()) return 'directory';
  if (stats.isFile()) return 'file';
  return 'other';
}
