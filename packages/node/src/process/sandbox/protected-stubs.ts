import { closeSync, constants, mkdirSync, openSync } from 'node:fs';
import { pinnedChildPath } from './pin-sandbox-path.js';

/**
 * Makes sure a protected fixed name inside a pinned git dir exists, so bwrap can mount a
 * read-only view over it (a mount needs a mount point; a missing name could otherwise be created
 * inside the sandbox). Created relative to the pinned directory — never through a path the
 * workspace could have redirected since it was verified — and left in place: an empty `hooks/`
 * or `config` in a git dir is what `git init` makes anyway, and removing a mount point that
 * another process's sandbox still has mounted would silently detach that sandbox's protection
 * (the kernel lazily unmounts a mount point unlinked from another namespace).
 */
export function ensureProtectedName(
  parentFd: number,
  name: string,
  kind: 'file' | 'directory',
): void {
  const target = pinnedChildPath(parentFd, name);
  try {
    if (kind === 'directory') {
      mkdirSync(target, { mode: 0o555 });
      return;
    }
    // O_EXCL | O_NOFOLLOW: whatever appeared meanwhile is left alone (and judged by the pin).
    closeSync(
      openSync(
        target,
        constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW,
        0o444,
      ),
    );
  } catch {
    // Exists already (perhaps made by a concurrent spawn): the pin that follows judges it.
  }
}
