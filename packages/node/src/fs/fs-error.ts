import {
  ToolCancelledError,
  ToolDispatchError,
  ToolExecutionError,
  ToolPolicyError,
} from '@toolhost/core';
import { refusedBeforeEffect } from '@toolhost/core/host';
import type { ToolId } from '@toolhost/core';
import type { AbortSignalLike } from '@toolhost/core/host';

// errno → a short secret-free reason; Node's own message names the path, so it rides on `cause`.
const REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'not_found',
  EISDIR: 'is_directory',
  ENOTDIR: 'not_a_directory',
  EEXIST: 'exists',
  EACCES: 'permission_denied',
  EPERM: 'permission_denied',
  ENOSPC: 'no_space',
  EDQUOT: 'no_space',
  EFBIG: 'too_large',
  EROFS: 'read_only_filesystem',
  ENAMETOOLONG: 'invalid_path',
  EMFILE: 'too_many_open_files',
  ENFILE: 'too_many_open_files',
  ENXIO: 'unsupported_file_type',
};

/** Maps any throw from the fs arm to a typed, secret-free dispatch error. */
export function toFsError(toolId: ToolId, error: unknown, isWrite: boolean): ToolDispatchError {
  if (error instanceof ToolDispatchError) return error;
  const code = errnoCode(error);
  // The kernel refused to follow a symlink we asked it not to follow.
  if (code === 'ELOOP') return new ToolPolicyError(toolId, 'symlink_refused', { cause: error });
  const reason = (code !== undefined && REASONS[code]) || 'io_error';
  // A failed read or listing had no effect, so the model may try again; a write may have had one.
  return new ToolExecutionError(toolId, reason, { cause: error, recoverable: !isWrite });
}

/**
 * `toFsError` of a write's failure known to come before its first effect (no directory made, no
 * file opened for writing, nothing renamed), marked so: a journaled call's claim is discarded.
 */
export function beforeWriteEffect(
  toolId: ToolId,
  error: unknown,
  isWrite = true,
): ToolDispatchError {
  return refusedBeforeEffect(toFsError(toolId, error, isWrite));
}

/** A fixed-reason execution failure the arm decides itself (too large, binary, not a file). */
export function fsFailure(toolId: ToolId, reason: string, isWrite: boolean): ToolExecutionError {
  return new ToolExecutionError(toolId, reason, { recoverable: !isWrite });
}

/** Throws the cancel error when the call was aborted; checked between side effects. */
export function throwIfAborted(toolId: ToolId, signal: AbortSignalLike | undefined): void {
  if (signal?.aborted === true) throw new ToolCancelledError(toolId, { cause: signal.reason });
}

/** The errno code of a Node system error, if it is one. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
