import { ToolExecutionError, ToolPolicyError } from '@toolhost/core';
import type { ToolDispatchError, ToolId } from '@toolhost/core';
import { toFsError } from '../fs/fs-error.js';

/**
 * A `cwd` the fs jail refused, as the process arm reports it: the jail's own reason, but never
 * recoverable. A spawn is governed, and the spec feeds back only the fs arm's pure scope escape
 * and `media_scope_denied`, so a read's recoverable `scope_escape` or `not_found` ends the turn.
 */
export function toCwdError(toolId: ToolId, error: unknown): ToolDispatchError {
  const mapped = toFsError(toolId, error, true);
  if (!mapped.recoverable) return mapped;
  const cause = mapped.cause ?? mapped;
  if (mapped instanceof ToolPolicyError)
    return new ToolPolicyError(toolId, mapped.reason, { cause, recoverable: false });
  if (mapped instanceof ToolExecutionError)
    return new ToolExecutionError(toolId, mapped.reason, { cause });
  // Unknown means deny: no other recoverable class exists today.
  return new ToolExecutionError(toolId, 'cwd_refused', { cause });
}
