import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { childPath } from './descriptor-path.js';
import type { DirectoryRef } from './descriptor-path.js';

// O_NONBLOCK: a FIFO swapped in since the listing must not hang the host.
const FILE_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** What reading one walked file gave: its bytes in the caller's buffer, or why not. */
export type ChildFileRead =
  | { readonly kind: 'read'; readonly length: number }
  | { readonly kind: 'too_large' }
  | { readonly kind: 'refused' };

/**
 * Reads the regular file `name` of a verified directory into `buffer` (at most its length),
 * opened below the directory's descriptor and never following a symlink. Refused (silently, as
 * a listing omits an entry) when it is not a single-named regular file: a symlink or FIFO
 * swapped in, or a hard link (a second name for a file outside the root). The walk re-verifies
 * the directory as it leaves it (see `walkSearchTree`): a procfs `readlink` per file doubled a
 * search's cost. Synchronous on purpose: one small file from the page cache, where four
 * thread-pool hops a file made a search five to ten times slower than `grep -rn`.
 */
export function readChildFile(
  directory: DirectoryRef,
  name: string,
  buffer: Buffer,
): ChildFileRead {
  let fd: number;
  try {
    fd = openSync(childPath(directory, name), FILE_FLAGS);
  } catch {
    return { kind: 'refused' };
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.nlink > 1) return { kind: 'refused' };
    if (stats.size > buffer.length) return { kind: 'too_large' };
    // Where the kernel says the file is must be where the directory was verified to be.
    let length = 0;
    while (length < stats.size) {
      const bytesRead = readSync(fd, buffer, length, stats.size - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return { kind: 'read', length };
  } catch {
    return { kind: 'refused' };
  } finally {
    closeSync(fd);
  }
}
