import { compareCodeUnits } from '@toolhost/core';
import type { DirectoryEntry } from '@toolhost/core';
import type { FsAtAddon } from '@toolhost/fs-at';
import type { DirectoryRef } from './descriptor-path.js';
import { foldPath, foldSegment, isFoldedOnReadFloor } from './floor.js';
import type { Jail } from './jail.js';
import { typeOf, visibleDirents } from './walk-tree.js';

/** One name of a listed directory and its type as readdir reported it (never following). */
export interface LevelName {
  readonly name: string;
  readonly type: DirectoryEntry['type'];
}

/**
 * The entries of an open, verified directory in code-unit order, floor entries left out:
 * through the addon's `readEntries` (read below the descriptor, no thread-pool hop), or
 * `visibleDirents` (Node's readdir through procfs) without it, or when the addon cannot read it.
 */
export async function readLevel(
  jail: Jail,
  directory: DirectoryRef,
  addon: FsAtAddon | undefined,
): Promise<LevelName[]> {
  const read = addon?.readEntries(directory.fd);
  // A failure (EACCES, …) is asked of Node again, so it throws the error Node's source would.
  if (addon === undefined || read === undefined || typeof read === 'number')
    return (await visibleDirents(jail, directory)).map((dirent) => ({
      name: dirent.name,
      type: typeOf(dirent),
    }));
  const types = entryTypes(addon);
  // The floor test `visibleDirents` makes: the folded directory plus each folded name.
  const folded = foldPath(directory.path);
  const level: LevelName[] = [];
  for (let slot = 0; slot + 1 < read.length; slot += 2) {
    const name = read[slot];
    const type = types.get(read[slot + 1]) ?? 'other';
    if (typeof name !== 'string') continue;
    if (isFoldedOnReadFloor([...folded, foldSegment(name)], jail.floor)) continue;
    level.push({ name, type });
  }
  return level.sort((a, b) => compareCodeUnits(a.name, b.name));
}

function entryTypes(addon: FsAtAddon): ReadonlyMap<unknown, DirectoryEntry['type']> {
  const { file, directory, symlink } = addon.entry;
  return new Map<unknown, DirectoryEntry['type']>([
    [file, 'file'],
    [directory, 'directory'],
    [symlink, 'symlink'],
  ]);
}
