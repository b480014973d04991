import { compareCodeUnits } from '@toolhost/core/host';
import type { DirectoryEntry } from '@toolhost/core/host';
import type { FsAtAddon } from '@toolhost/fs-at';
import type { DirectoryRef } from './descriptor-path.js';
import { foldPath, foldSegment } from './floor.js';
import { createLevelFloor } from './floor-level.js';
import type { Jail } from './jail.js';
import { typeOf, visibleDirents } from './walk-tree.js';

/** One name of a listed directory and its type as readdir reported it (never following). */
export interface LevelName {
  readonly name: string;
  readonly type: DirectoryEntry['type'];
}

/**
 * The entries of an open, verified directory in code-unit order, floor entries left out:
 * through the addon's `listEntries` (read below the descriptor, no thread-pool hop), or
 * `visibleDirents` (Node's readdir through procfs) without it, or when the addon cannot read it.
 */
export async function readLevel(
  jail: Jail,
  directory: DirectoryRef,
  addon: FsAtAddon | undefined,
): Promise<LevelName[]> {
  const read = addon?.listEntries(directory.fd);
  // A failure (EACCES, …) is asked of Node again, so it throws the error Node's source would.
  if (addon === undefined || read === undefined || typeof read === 'number')
    return (await visibleDirents(jail, directory)).map((dirent) => ({
      name: dirent.name,
      type: typeOf(dirent),
    }));
  const [joined, types] = read;
  const names = typeof joined !== 'string' ? joined : types.length === 0 ? [] : joined.split('\0');
  const typeNames = entryTypes(addon);
  // The floor test `visibleDirents` makes: the folded directory plus each folded name.
  const onFloor = createLevelFloor(foldPath(directory.path), jail.floor);
  const level: LevelName[] = [];
  for (let index = 0; index < names.length; index += 1) {
    const name = names[index];
    if (name === undefined || onFloor(foldSegment(name))) continue;
    level.push({ name, type: typeNames[types.charCodeAt(index) - DIGIT_ZERO] ?? 'other' });
  }
  // Mostly in order already (the addon sorts ASCII names): then there is nothing to sort.
  return inOrder(level) ? level : level.sort(byName);
}

function inOrder(level: readonly LevelName[]): boolean {
  for (let index = 1; index < level.length; index += 1) {
    const previous = level[index - 1]?.name ?? '';
    const current = level[index]?.name ?? '';
    if (compareCodeUnits(previous, current) > 0) return false;
  }
  return true;
}

const DIGIT_ZERO = 0x30;

function byName(a: LevelName, b: LevelName): number {
  return compareCodeUnits(a.name, b.name);
}

// The entry types by `FS_AT_ENTRY` number; any other is `other`.
function entryTypes(addon: FsAtAddon): readonly DirectoryEntry['type'][] {
  const types: DirectoryEntry['type'][] = [];
  const { other, file, directory, symlink } = addon.entry;
  types[other] = 'other';
  types[file] = 'file';
  types[directory] = 'directory';
  types[symlink] = 'symlink';
  return types;
}
