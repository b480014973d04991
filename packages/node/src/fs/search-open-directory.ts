import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { childPath, descriptorPath } from './descriptor-path.js';
import type { DirectoryRef } from './descriptor-path.js';
import { isOnReadFloor } from './floor.js';
import type { FloorContext } from './floor.js';
import { DIRECTORY_FLAGS } from './walk-components.js';

/**
 * Opens the subdirectory `name` of a verified directory, synchronously, never through a
 * symlink, and verifies it where the kernel says it is: exactly `parent.path/name` (so inside
 * whatever the parent was verified inside) and off the read floor. `undefined` when it was
 * swapped for a symlink or a file, moved or removed since the listing: not searched. The caller
 * closes the descriptor. Synchronous: a thread-pool hop per directory cost more than the open.
 */
export function openSearchDirectory(
  parent: DirectoryRef,
  name: string,
  floor: FloorContext,
): DirectoryRef | undefined {
  let fd: number;
  try {
    fd = openSync(childPath(parent, name), DIRECTORY_FLAGS);
  } catch {
    return undefined;
  }
  const expected = path.join(parent.path, name);
  let real: string | undefined;
  try {
    real = descriptorPath(fd, expected);
  } catch {
    real = undefined;
  }
  if (real !== expected || isOnReadFloor(real, floor)) {
    closeSync(fd);
    return undefined;
  }
  return { fd, path: real };
}
