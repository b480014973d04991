import { closeSync, constants, lstatSync, openSync, readlinkSync } from 'node:fs';
import { lstat, mkdir, open, readlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { ToolPolicyError } from '@toolhost/core';
import type { ToolId } from '@toolhost/core';
import { childPath } from './descriptor-path.js';
import type { DirectoryRef } from './descriptor-path.js';
import { errnoCode, fsFailure } from './fs-error.js';
import type { OpenedEntry } from './jail.js';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = constants;
/** Opens a directory component: never through a symlink. */
export const DIRECTORY_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
// O_NONBLOCK: opening a FIFO planted in the workspace must not hang the host.
const FILE_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK;

/** Where a walk starts: an allowed root, open as a directory. */
export interface WalkBase extends DirectoryRef {
  readonly handle: FileHandle;
}

/** Where a walk ended: the opened entry, or a symlink the jail must expand and re-check. */
export type WalkStep =
  { readonly redirect: string } | { readonly handle: FileHandle; readonly path: string };

/** `WalkStep` of a synchronous walk: the opened entry is a bare descriptor the caller closes. */
export type WalkDescriptorStep =
  { readonly redirect: string } | { readonly fd: number; readonly path: string };

// One component per open, each relative to the directory opened before it and never following a
// symlink: a component swapped for a symlink mid-walk fails the open instead of leaving the root.
// The directories on the way open synchronously (a local lookup from the dentry cache takes
// microseconds, a thread-pool hop each took more than the whole read); only the entry itself is
// opened asynchronously, as a FileHandle.
export async function walk(
  toolId: ToolId,
  base: WalkBase,
  segments: readonly string[],
  kind: 'file' | 'directory',
): Promise<WalkStep> {
  if (segments.length === 0) {
    return { handle: await open(base.path, DIRECTORY_FLAGS), path: base.path };
  }
  const parent = walkParents(base, segments);
  if ('redirect' in parent) return parent;
  const { directory, owned, name } = parent;
  try {
    checkNotSpecial(toolId, directory, name, kind);
    let handle: FileHandle;
    try {
      handle = await open(childPath(directory, name), flagsFor(kind));
    } catch (error) {
      return redirectOrThrow(error, directory, name, []);
    }
    return { handle, path: path.join(directory.path, name) };
  } finally {
    if (owned !== undefined) closeSync(owned);
  }
}

/**
 * `walk`, every open synchronous: for a file read that then needs one asynchronous read at most
 * (see `Jail.openFileForRead`). The checks are the same, in the same order.
 */
export function walkSync(
  toolId: ToolId,
  base: WalkBase,
  segments: readonly string[],
  kind: 'file' | 'directory',
): WalkDescriptorStep {
  if (segments.length === 0) return { fd: openSync(base.path, DIRECTORY_FLAGS), path: base.path };
  const parent = walkParents(base, segments);
  if ('redirect' in parent) return parent;
  const { directory, owned, name } = parent;
  try {
    checkNotSpecial(toolId, directory, name, kind);
    let fd: number;
    try {
      fd = openSync(childPath(directory, name), flagsFor(kind));
    } catch (error) {
      return redirectOrThrow(error, directory, name, []);
    }
    return { fd, path: path.join(directory.path, name) };
  } finally {
    if (owned !== undefined) closeSync(owned);
  }
}

/** The directory holding the last segment, open (`owned` unless it is the base), or a redirect. */
type ParentStep =
  | { readonly redirect: string }
  | { readonly directory: DirectoryRef; readonly owned: number | undefined; readonly name: string };

// Opens every segment but the last as a directory, each below the one before, never through a
// symlink; the descriptor left open is the last segment's parent.
function walkParents(base: WalkBase, segments: readonly string[]): ParentStep {
  let current: DirectoryRef = base;
  let owned: number | undefined;
  try {
    for (let index = 0; index < segments.length - 1; index += 1) {
      const name = segments[index] ?? '';
      let next: number;
      try {
        next = openSync(childPath(current, name), DIRECTORY_FLAGS);
      } catch (error) {
        const redirect = redirectOrThrow(error, current, name, segments.slice(index + 1));
        // The walk restarts from a root: the directory opened so far is done with.
        if (owned !== undefined) closeSync(owned);
        return redirect;
      }
      if (owned !== undefined) closeSync(owned);
      owned = next;
      current = { fd: next, path: path.join(current.path, name) };
    }
  } catch (error) {
    if (owned !== undefined) closeSync(owned);
    throw error;
  }
  const name = segments[segments.length - 1];
  if (name === undefined) throw new Error('toolhost: unreachable empty walk');
  return { directory: current, owned, name };
}

// Opening a device can act (rewind a tape, arm a watchdog), so look before opening; the open
// still refuses a symlink swapped in since, and the descriptor is checked after.
function checkNotSpecial(
  toolId: ToolId,
  directory: DirectoryRef,
  name: string,
  kind: 'file' | 'directory',
): void {
  if (kind === 'file' && isSpecialFile(childPath(directory, name)))
    throw fsFailure(toolId, 'unsupported_file_type', false);
}

function flagsFor(kind: 'file' | 'directory'): number {
  return kind === 'file' ? FILE_FLAGS : DIRECTORY_FLAGS;
}

// O_NOFOLLOW says ELOOP for a symlink, O_DIRECTORY|O_NOFOLLOW says ENOTDIR: a symlink there is
// expanded (the walk restarts from a root, judged again); anything else is the open's error.
function redirectOrThrow(
  error: unknown,
  directory: DirectoryRef,
  name: string,
  rest: readonly string[],
): { readonly redirect: string } {
  const code = errnoCode(error);
  const link =
    code === 'ELOOP' || code === 'ENOTDIR' ? readSymlinkSync(directory, name) : undefined;
  if (link === undefined) throw error;
  return { redirect: path.resolve(directory.path, link, ...rest) };
}

/**
 * Whether a write's walk created a directory: a refusal after that is no longer one before the
 * call's effect. Passed only when the walk may create (`createDirs`); absent, it creates nothing.
 */
export interface DirectoryCreation {
  created: boolean;
}

/**
 * Opens the directories of a write target one by one, never through a symlink: a symlinked
 * directory on the way ends the walk with a redirect the jail re-checks and walks again from a
 * root, exactly as a read does. Each directory it makes is recorded in `creation`.
 */
export async function walkForWrite(
  toolId: ToolId,
  base: WalkBase,
  segments: readonly string[],
  creation: DirectoryCreation | undefined,
  verify: (
    toolId: ToolId,
    entry: { handle: FileHandle; path: string },
    mode: 'write',
  ) => Promise<OpenedEntry>,
): Promise<WalkStep> {
  if (segments.length === 0) return { handle: base.handle, path: base.path };
  let current: DirectoryRef = base;
  let owned: FileHandle | undefined;
  try {
    for (const [index, name] of segments.entries()) {
      const next = await openDirectoryForWrite(toolId, current, owned, name, creation, verify);
      if ('link' in next) {
        await owned?.close();
        return { redirect: path.resolve(current.path, next.link, ...segments.slice(index + 1)) };
      }
      await owned?.close();
      owned = next.handle;
      current = { fd: next.handle.fd, path: path.join(current.path, name) };
    }
  } catch (error) {
    await owned?.close();
    throw error;
  }
  if (owned === undefined) throw new Error('toolhost: unreachable empty walk');
  return { handle: owned, path: current.path };
}

async function openDirectoryForWrite(
  toolId: ToolId,
  current: DirectoryRef,
  currentHandle: FileHandle | undefined,
  name: string,
  creation: DirectoryCreation | undefined,
  verify: (
    toolId: ToolId,
    entry: { handle: FileHandle; path: string },
    mode: 'write',
  ) => Promise<OpenedEntry>,
): Promise<{ readonly handle: FileHandle } | { readonly link: string }> {
  try {
    return { handle: await open(childPath(current, name), DIRECTORY_FLAGS) };
  } catch (error) {
    const code = errnoCode(error);
    const link =
      code === 'ELOOP' || code === 'ENOTDIR' ? await readSymlink(current, name) : undefined;
    if (link !== undefined) return { link };
    if (code !== 'ENOENT' || creation === undefined) throw error;
  }
  // The deepest existing ancestor is checked where the kernel says it is before anything is
  // created in it, so a parent renamed out of the root gets no new directory.
  if (currentHandle !== undefined)
    await verify(toolId, { handle: currentHandle, path: current.path }, 'write');
  try {
    await mkdir(childPath(current, name), 0o777);
    creation.created = true;
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') throw error;
  }
  try {
    return { handle: await open(childPath(current, name), DIRECTORY_FLAGS) };
  } catch (error) {
    const code = errnoCode(error);
    // A symlink planted between the mkdir and the open: never followed on this walk.
    if (code === 'ELOOP' || code === 'ENOTDIR')
      throw new ToolPolicyError(toolId, 'symlink_refused', { cause: error });
    throw error;
  }
}

function readSymlinkSync(directory: DirectoryRef, name: string): string | undefined {
  const stats = lstatSync(childPath(directory, name));
  return stats.isSymbolicLink() ? readlinkSync(childPath(directory, name)) : undefined;
}

function isSpecialFile(target: string): boolean {
  const stats = lstatSync(target, { throwIfNoEntry: false });
  return stats !== undefined && !stats.isFile() && !stats.isDirectory() && !stats.isSymbolicLink();
}

async function readSymlink(directory: DirectoryRef, name: string): Promise<string | undefined> {
  const stats = await lstat(childPath(directory, name));
  return stats.isSymbolicLink() ? readlink(childPath(directory, name)) : undefined;
}
