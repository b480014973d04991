import { constants, lstatSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { link, mkdir, open, rename, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { ToolExecutionError, ToolPolicyError } from '@toolhost/core';
import type { AbortSignalLike, FileMove, FsMoveRequest } from '@toolhost/core/host';
import { childPath } from './descriptor-path.js';
import { assertDirectoryUnmoved } from './directory-unmoved.js';
import { beforeWriteEffect, errnoCode, fsFailure, throwIfAborted, toFsError } from './fs-error.js';
import type { Jail, WriteTarget } from './jail.js';
import { isInside } from './requested-path.js';
import { assertSubtreeOffFloor } from './subtree-floor.js';

const TOOL_ID = 'move_file';
const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;

/** Test seams; the host passes none. */
export interface MoveFileHooks {
  /** Runs after both ends were walked and checked, just before the rename. */
  readonly beforeRename?: () => Promise<void>;
}

/**
 * `move_file`: both ends are reached like a write (each parent walked without following a
 * symlink and verified, the write floor judged on both, since moving a protected file away is a
 * write to it), the destination's missing parents created on the way. The rename then runs
 * between the two open parent descriptors, after checking neither moved since: a parent swapped
 * for a symlink is refused, never followed. Without `overwrite` nothing is replaced: a file moves
 * by `link` + `unlink` (`link` never replaces), a directory by `rename` onto an empty
 * placeholder made with `mkdir` (a rename replaces nothing else).
 */
export function createMoveFile(jail: Jail, hooks: MoveFileHooks = {}) {
  return async function moveFile(
    request: FsMoveRequest,
    signal?: AbortSignalLike,
  ): Promise<FileMove> {
    try {
      throwIfAborted(TOOL_ID, signal);
      const source = await jail.openParentForWrite(TOOL_ID, request.source, false);
      try {
        const kind = judgeSource(jail, source, request);
        const destination = await jail.openParentForWrite(TOOL_ID, request.destination, true);
        try {
          return await moveBetween({ jail, source, destination, kind, request, hooks, signal });
        } finally {
          await destination.release();
        }
      } finally {
        await source.release();
      }
    } catch (error) {
      throw toFsError(TOOL_ID, error, true);
    }
  };
}

interface Move {
  readonly jail: Jail;
  readonly source: WriteTarget;
  readonly destination: WriteTarget;
  readonly kind: 'file' | 'directory';
  readonly request: FsMoveRequest;
  readonly hooks: MoveFileHooks;
  readonly signal: AbortSignalLike | undefined;
}

// Nothing is created or moved yet: a refusal of the source is before any effect.
function judgeSource(
  jail: Jail,
  source: WriteTarget,
  request: FsMoveRequest,
): 'file' | 'directory' {
  try {
    const kind = sourceKind(source);
    // Before any parent is created: `a` → `a/b/c` must not leave `a/b` behind.
    if (kind === 'directory' && isInside(source.path, path.resolve(jail.root, request.destination)))
      throw refusal('into_itself', 'A directory cannot be moved into itself.');
    return kind;
  } catch (error) {
    throw beforeWriteEffect(TOOL_ID, error);
  }
}

async function moveBetween(move: Move): Promise<FileMove> {
  const { jail, source, destination, kind } = move;
  const from = childPath(source.directory, source.name);
  const to = childPath(destination.directory, destination.name);
  let existing: Stats | undefined;
  try {
    existing = await checkBeforeMoving(move, to);
  } catch (error) {
    // Before the first link, rename or placeholder; only the destination's new parents, if the
    // jail made any, came first.
    throw destination.createdDirectories ? error : beforeWriteEffect(TOOL_ID, error);
  }
  let overwritten = false;
  if (move.request.overwrite === true) overwritten = await replacing(from, to, existing);
  else if (kind === 'file') await linkThenUnlink(from, to);
  else await renameOntoPlaceholder(from, to, 'directory');
  return {
    source: jail.displayName(source.path),
    destination: jail.displayName(destination.path),
    overwritten,
  };
}

// Every check of the move before it touches anything; with `overwrite`, what it would replace.
async function checkBeforeMoving(move: Move, to: string): Promise<Stats | undefined> {
  const { jail, source, destination, kind } = move;
  // The real paths this time: a symlinked parent may have led the destination under the source.
  if (destination.path === source.path)
    throw refusal('same_path', 'The source and the destination are the same path.');
  if (kind === 'directory' && isInside(source.path, destination.path))
    throw refusal('into_itself', 'A directory cannot be moved into itself.');
  if (kind === 'directory')
    await assertSubtreeOffFloor({
      toolId: TOOL_ID,
      floor: jail.floor,
      parent: source.directory,
      name: source.name,
      from: source.path,
      to: destination.path,
    });
  throwIfAborted(TOOL_ID, move.signal);
  await move.hooks.beforeRename?.();
  assertDirectoryUnmoved(TOOL_ID, source.directory);
  assertDirectoryUnmoved(TOOL_ID, destination.directory);
  if (move.request.overwrite !== true) return undefined;
  const existing = lstatSync(to, { throwIfNoEntry: false });
  if (existing !== undefined) checkReplaceable(existing, kind);
  return existing;
}

// What may be moved, as the fs arm's other writes judge a leaf: never a symlink, a second name
// of a file (its other name may be outside the root) or a device.
function sourceKind(source: WriteTarget): 'file' | 'directory' {
  const stats = lstatSync(childPath(source.directory, source.name), { throwIfNoEntry: false });
  if (stats === undefined) throw fsFailure(TOOL_ID, 'not_found', false);
  if (stats.isSymbolicLink()) throw new ToolPolicyError(TOOL_ID, 'symlink_refused');
  if (stats.isDirectory()) return 'directory';
  if (!stats.isFile()) throw fsFailure(TOOL_ID, 'unsupported_file_type', false);
  if (stats.nlink > 1) throw new ToolPolicyError(TOOL_ID, 'hard_link_refused');
  return 'file';
}

// `overwrite`: rename replaces a file or an empty directory in one step. What sits there is
// judged like a write's leaf; the kernel refuses a file over a directory and the reverse.
async function replacing(from: string, to: string, existing: Stats | undefined): Promise<boolean> {
  try {
    await rename(from, to);
  } catch (error) {
    throw renameFailure(error);
  }
  return existing !== undefined;
}

function checkReplaceable(existing: Stats, kind: 'file' | 'directory'): void {
  if (existing.isSymbolicLink()) throw new ToolPolicyError(TOOL_ID, 'symlink_refused');
  if (existing.isDirectory()) {
    if (kind === 'file') throw fsFailure(TOOL_ID, 'is_directory', false);
    return;
  }
  if (!existing.isFile()) throw fsFailure(TOOL_ID, 'unsupported_file_type', false);
  if (kind === 'directory') throw fsFailure(TOOL_ID, 'not_a_directory', false);
  if (existing.nlink > 1) throw new ToolPolicyError(TOOL_ID, 'hard_link_refused');
}

// `link` fails with EEXIST rather than replace: the no-overwrite check and the move are one
// system call. A filesystem or a `protected_hardlinks` setting that refuses links falls back.
async function linkThenUnlink(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'EEXIST') throw exists();
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw renameFailure(error);
    await renameOntoPlaceholder(from, to, 'file');
    return;
  }
  try {
    await unlink(from);
  } catch (error) {
    // Two names for one file is no move: take the new one back.
    await unlink(to).catch(() => undefined);
    throw error;
  }
}

// A placeholder made exclusively, then replaced by the rename. What remains: in the instant
// between the two, another process could swap the placeholder for an empty directory or a file
// of its own, which the rename would then replace (a non-empty directory fails ENOTEMPTY).
async function renameOntoPlaceholder(
  from: string,
  to: string,
  kind: 'file' | 'directory',
): Promise<void> {
  try {
    if (kind === 'directory') await mkdir(to, 0o700);
    else await (await open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600)).close();
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') throw exists();
    throw error;
  }
  try {
    await rename(from, to);
  } catch (error) {
    await (kind === 'directory' ? rmdir(to) : unlink(to)).catch(() => undefined);
    throw renameFailure(error);
  }
}

function renameFailure(error: unknown): unknown {
  switch (errnoCode(error)) {
    case 'ENOTEMPTY':
    case 'EEXIST':
      return refusal('not_empty', 'The destination is a directory that is not empty.');
    case 'EXDEV':
      return refusal(
        'cross_device',
        'The source and the destination are on different filesystems.',
      );
    case 'EINVAL':
      return refusal('into_itself', 'A directory cannot be moved into itself.');
    default:
      return error;
  }
}

function exists(): ToolExecutionError {
  return refusal('exists', 'The destination exists. Set overwrite to true to replace it.');
}

// Nothing moved: the model can fix the arguments and call again.
function refusal(reason: string, detail: string): ToolExecutionError {
  return new ToolExecutionError(TOOL_ID, reason, {
    correctable: true,
    recoverable: true,
    retryable: false,
    detail,
  });
}
