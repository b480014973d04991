import { readlinkSync, statSync } from 'node:fs';

const PROC_FD = '/proc/self/fd';

/** An open directory: its descriptor and the real path it was verified at. */
export interface DirectoryRef {
  readonly fd: number;
  readonly path: string;
}

/**
 * True where `/proc/self/fd/N` names the open file (Linux). There, `childPath` gives `openat`
 * semantics that Node lacks: the lookup starts at the descriptor's directory, whatever happened to
 * the path since it was opened.
 */
export const hasDescriptorPaths: boolean = probe();

/** A path for `name` inside the open directory; the directory is never looked up by path again. */
export function childPath(directory: DirectoryRef, name: string): string {
  // A separator or dot-segment here would climb out of the verified directory.
  if (name === '' || name === '.' || name === '..' || name.includes('/'))
    throw new Error('toolhost: invalid path segment');
  return hasDescriptorPaths ? `${PROC_FD}/${directory.fd}/${name}` : `${directory.path}/${name}`;
}

/** A path that names the open directory itself (for `readdir`), never re-resolved by name. */
export function ownPath(directory: DirectoryRef): string {
  return hasDescriptorPaths ? `${PROC_FD}/${directory.fd}` : directory.path;
}

/**
 * The path the kernel reports for an open descriptor; `undefined` once it was deleted. Synchronous
 * on purpose: procfs answers from memory, never from storage, and a thread-pool hop here would
 * cost more than the call.
 */
export function descriptorPath(fd: number, fallback: string): string | undefined {
  if (!hasDescriptorPaths) return fallback;
  const reported = readlinkSync(`${PROC_FD}/${fd}`);
  return reported.endsWith(' (deleted)') || !reported.startsWith('/') ? undefined : reported;
}

function probe(): boolean {
  return (
    process.platform === 'linux' &&
    statSync(PROC_FD, { throwIfNoEntry: false })?.isDirectory() === true
  );
}
