import { lstatSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { ToolExecutionError, ToolPolicyError } from '@toolhost/core';
import { refusedBeforeEffect } from '@toolhost/core/host';
import type { AbortSignalLike, DirectoryMake, FsMakeDirectoryRequest } from '@toolhost/core/host';
import { childPath } from './descriptor-path.js';
import { assertDirectoryUnmoved } from './directory-unmoved.js';
import { beforeWriteEffect, errnoCode, throwIfAborted, toFsError } from './fs-error.js';
import type { Jail, WriteTarget } from './jail.js';

const TOOL_ID = 'create_directory';

/** Test seams; the host passes none. */
export interface MakeDirectoryHooks {
  /** Runs after the parent was walked and verified, just before the last `mkdir`. */
  readonly beforeMkdir?: () => Promise<void>;
}

/**
 * `create_directory`, like `mkdir -p`: the parents are walked (and the missing ones created) one
 * component at a time, never through a symlink, each verified where the kernel says it is and
 * judged by the write floor; the last one is made in its open parent, checked unmoved first.
 * An existing directory is kept (`created: false`); anything else at the name is refused.
 */
export function createMakeDirectory(jail: Jail, hooks: MakeDirectoryHooks = {}) {
  return async function makeDirectory(
    request: FsMakeDirectoryRequest,
    signal?: AbortSignalLike,
  ): Promise<DirectoryMake> {
    try {
      throwIfAborted(TOOL_ID, signal);
      // The workspace root itself already exists; it has no parent to create it in.
      if (path.resolve(jail.root, request.path) === jail.root) return { path: '.', created: false };
      const target = await jail.openParentForWrite(TOOL_ID, request.path, true);
      try {
        const created = await makeIn(target, hooks, signal);
        return { path: jail.displayName(target.path), created };
      } finally {
        await target.release();
      }
    } catch (error) {
      throw toFsError(TOOL_ID, error, true);
    }
  };
}

// Nothing is made before the last `mkdir` but the parents the jail created: without those, a
// refusal up to it (and a name that already exists, which that `mkdir` leaves alone) precedes
// any effect.
async function makeIn(
  target: WriteTarget,
  hooks: MakeDirectoryHooks,
  signal: AbortSignalLike | undefined,
): Promise<boolean> {
  const leaf = childPath(target.directory, target.name);
  try {
    throwIfAborted(TOOL_ID, signal);
    await hooks.beforeMkdir?.();
    assertDirectoryUnmoved(TOOL_ID, target.directory);
  } catch (error) {
    throw target.createdDirectories ? error : beforeWriteEffect(TOOL_ID, error);
  }
  try {
    // mkdir never follows its last component: a symlink there is EEXIST, judged below.
    await mkdir(leaf, 0o777);
    return true;
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') throw error;
  }
  const existing = lstatSync(leaf, { throwIfNoEntry: false });
  if (existing?.isDirectory() === true) return false;
  const refused =
    existing?.isSymbolicLink() === true
      ? new ToolPolicyError(TOOL_ID, 'symlink_refused')
      : notADirectory();
  throw target.createdDirectories ? refused : refusedBeforeEffect(refused);
}

function notADirectory(): ToolExecutionError {
  return new ToolExecutionError(TOOL_ID, 'not_a_directory', {
    correctable: true,
    recoverable: true,
    retryable: false,
    detail: 'A file already exists at that path, so no directory was created.',
  });
}
