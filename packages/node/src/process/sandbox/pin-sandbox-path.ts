import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { ToolPolicyError } from '@toolhost/core';

// Not in `fs.constants`: the same value on every Linux architecture Node ships for.
const O_PATH = 0o10000000;
const { O_DIRECTORY, O_NOFOLLOW } = constants;

/**
 * Opens `real` (a real path from `resolveSandboxPath`) one component at a time, each relative to
 * the directory opened before it and never through a symlink, as an `O_PATH` descriptor for
 * bwrap's `--bind-fd`/`--ro-bind-fd`. The mount's source is then the object verified here, not
 * whatever a path names when bwrap gets to it: a component swapped for a symlink since the walk
 * fails the open, and the spawn with it (`symlink_refused`).
 */
export function pinSandboxPath(
  toolId: string,
  real: string,
  kind: 'file' | 'directory' | 'either',
): number {
  const names = real.split('/').filter((name) => name !== '');
  let fd = openSync('/', O_PATH | O_DIRECTORY);
  try {
    for (const [index, name] of names.entries()) {
      const last = index === names.length - 1;
      const flags = O_PATH | O_NOFOLLOW | (last ? 0 : O_DIRECTORY);
      let next: number;
      try {
        next = openSync(`/proc/self/fd/${fd}/${name}`, flags);
      } catch (error) {
        throw new ToolPolicyError(toolId, 'symlink_refused', { cause: error });
      }
      closeSync(fd);
      fd = next;
    }
    checkKind(toolId, fd, kind);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/**
 * `name` inside the pinned directory `parentFd`, pinned the same way; `undefined` when nothing is
 * there. A symlink there, or the wrong kind of entry, refuses the spawn.
 */
export function pinSandboxChild(
  toolId: string,
  parentFd: number,
  name: string,
  kind: 'file' | 'directory' | 'either',
): number | undefined {
  let fd: number;
  try {
    fd = openSync(`/proc/self/fd/${parentFd}/${name}`, O_PATH | O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ToolPolicyError(toolId, 'symlink_refused', { cause: error });
  }
  try {
    checkKind(toolId, fd, kind);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** The path of `name` inside a pinned directory: what the host creates or opens there. */
export function pinnedChildPath(parentFd: number, name: string): string {
  return `/proc/self/fd/${parentFd}/${name}`;
}

function checkKind(toolId: string, fd: number, kind: 'file' | 'directory' | 'either'): void {
  const info = fstatSync(fd);
  const fits =
    kind === 'either'
      ? info.isDirectory() || info.isFile()
      : kind === 'directory'
        ? info.isDirectory()
        : info.isFile();
  if (!fits) throw new ToolPolicyError(toolId, 'symlink_refused');
}
