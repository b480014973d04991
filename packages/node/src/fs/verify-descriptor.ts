import { closeSync, fstatSync, openSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { ToolPolicyError } from '@toolhost/core';
import type { ToolId } from '@toolhost/core';
import { childPath, descriptorPath } from './descriptor-path.js';
import type { DirectoryRef } from './descriptor-path.js';
import { fsFailure } from './fs-error.js';
import type { OpenedEntry } from './jail.js';
import type { ReadFloorJudge } from './read-floor-judge.js';
import { isInside } from './requested-path.js';
import { DIRECTORY_FLAGS } from './walk-components.js';

/** An open, verified file or directory as a bare descriptor; the caller closes `fd` (`closeSync`). */
export interface OpenedDescriptor {
  readonly fd: number;
  /** The real path the kernel reports for `fd`. */
  readonly path: string;
  readonly stats: Stats;
}

/** An allowed root as the verification sees it: its real path, and whether it may be written. */
export interface VerifiedRoot {
  readonly path: string;
  readonly writable: boolean;
}

/** Where the kernel says a descriptor is, checked; throws the refusal when it is not allowed. */
export type VerifyDescriptor = (
  toolId: ToolId,
  fd: number,
  opened: string,
  mode: 'read' | 'write',
) => { path: string; stats: Stats };

/**
 * The jail's check of an open descriptor: what the kernel says was opened must still be in
 * scope and off the floor. This is what a directory swapped for a symlink mid-walk, or renamed
 * out of the root, runs into.
 */
export function createVerifyDescriptor(
  roots: readonly VerifiedRoot[],
  onReadFloor: ReadFloorJudge,
): VerifyDescriptor {
  return (toolId, fd, opened, mode) => {
    const real = descriptorPath(fd, opened);
    if (real === undefined) throw fsFailure(toolId, 'not_found', mode === 'write');
    if (
      !roots.some(
        (candidate) => (mode === 'read' || candidate.writable) && isInside(candidate.path, real),
      )
    )
      throw new ToolPolicyError(toolId, 'symlink_refused');
    if (mode === 'read' && onReadFloor(real)) throw new ToolPolicyError(toolId, 'protected_path');
    // fstat of an open descriptor reads the in-memory inode: no thread-pool hop.
    return { path: real, stats: fstatSync(fd) };
  };
}

/**
 * Opens a subdirectory of an open directory without following a symlink (O_NOFOLLOW|O_DIRECTORY
 * below the parent's descriptor) and verifies it; `undefined` if refused.
 */
export async function openChildDirectory(
  verify: VerifyDescriptor,
  parent: DirectoryRef,
  name: string,
): Promise<OpenedEntry | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(childPath(parent, name), DIRECTORY_FLAGS);
  } catch {
    // Swapped for a symlink, a file or nothing since the parent was read: not listed.
    return undefined;
  }
  try {
    const opened = verify('list_directory', handle.fd, path.join(parent.path, name), 'read');
    return { handle, fd: handle.fd, ...opened };
  } catch {
    await handle.close();
    return undefined;
  }
}

/**
 * `openChildDirectory` without a thread-pool hop: the same open (O_NOFOLLOW|O_DIRECTORY
 * below the parent's descriptor) and the same verification, synchronously. A local lookup
 * answers from the dentry cache in microseconds; the FileHandle's open and close each cost more.
 * `undefined` when refused (swapped for a symlink, a file or nothing, or verified out of bounds).
 */
export function openChildDirectorySync(
  verify: VerifyDescriptor,
  parent: DirectoryRef,
  name: string,
): OpenedDescriptor | undefined {
  let fd: number;
  try {
    fd = openSync(childPath(parent, name), DIRECTORY_FLAGS);
  } catch {
    return undefined;
  }
  try {
    return { fd, ...verify('list_directory', fd, path.join(parent.path, name), 'read') };
  } catch {
    closeSync(fd);
    return undefined;
  }
}

/** Refuses an opened entry that is not the kind asked for, or a hard-linked file. */
export function checkKind(toolId: ToolId, stats: Stats, kind: 'file' | 'directory'): void {
  if (kind === 'directory') {
    if (!stats.isDirectory()) throw fsFailure(toolId, 'not_a_directory', false);
    return;
  }
  if (stats.isDirectory()) throw fsFailure(toolId, 'is_directory', false);
  if (!stats.isFile()) throw fsFailure(toolId, 'unsupported_file_type', false);
  // A second name for a file outside the root would otherwise read it.
  if (stats.nlink > 1) throw new ToolPolicyError(toolId, 'hard_link_refused');
}
