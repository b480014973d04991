import { lstatSync, readdirSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { ToolPolicyError } from '@toolhost/core';
import type { ToolId } from '@toolhost/core';
import { childPath, ownPath } from './descriptor-path.js';
import type { DirectoryRef } from './descriptor-path.js';
import { fsFailure } from './fs-error.js';
import { isOnWriteFloor } from './floor.js';
import type { FloorContext } from './floor.js';
import { DIRECTORY_FLAGS } from './walk-components.js';

/** Most entries a moved directory may hold: the floor check below looks at every one. */
export const MAX_MOVED_ENTRIES = 10_000;

/** A directory about to be renamed: `name` in the open `parent`, going from `from` to `to`. */
export interface SubtreeMove {
  readonly toolId: ToolId;
  readonly floor: FloorContext;
  readonly parent: DirectoryRef;
  readonly name: string;
  readonly from: string;
  readonly to: string;
}

/**
 * Refuses to move a directory holding an entry on the write floor, at its old path or its new
 * one: a rename moves every path below it, so `cfg` → `.config` would plant `.config/git/config`
 * and `.docker` → `d` would unfloor `d/config.json`. Walked without following a symlink, through
 * descriptors; bounded by `MAX_MOVED_ENTRIES`.
 */
export async function assertSubtreeOffFloor(move: SubtreeMove): Promise<void> {
  let seen = 0;
  const visit = async (directory: DirectoryRef, relative: string): Promise<void> => {
    for (const name of readdirSync(ownPath(directory))) {
      seen += 1;
      if (seen > MAX_MOVED_ENTRIES) throw fsFailure(move.toolId, 'too_many_entries', false);
      const below = path.join(relative, name);
      if (
        isOnWriteFloor(path.join(move.from, below), move.floor) ||
        isOnWriteFloor(path.join(move.to, below), move.floor)
      )
        throw new ToolPolicyError(move.toolId, 'protected_path');
      const stats = lstatSync(childPath(directory, name), { throwIfNoEntry: false });
      if (stats?.isDirectory() === true) await within(directory, name, below, visit);
    }
  };
  await within(move.parent, move.name, '', visit);
}

// Opens `name` in `directory` with O_NOFOLLOW, runs `body` on it and closes it.
async function within(
  directory: DirectoryRef,
  name: string,
  relative: string,
  body: (opened: DirectoryRef, relative: string) => Promise<void>,
): Promise<void> {
  // A directory swapped for a symlink since it was listed fails here (ELOOP or ENOTDIR).
  const handle: FileHandle = await open(childPath(directory, name), DIRECTORY_FLAGS);
  try {
    await body({ fd: handle.fd, path: path.join(directory.path, name) }, relative);
  } finally {
    await handle.close();
  }
}
