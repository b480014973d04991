import {
  ToolArgsInvalidError,
  ToolCancelledError,
  ToolDeniedByUserError,
  ToolExecutionError,
  ToolPolicyError,
  ToolUnavailableError,
  type ToolDispatchError,
} from './errors.js';
import { isRefusedBeforeEffect, refusedBeforeEffect } from './refused-before-effect.js';
import type { ToolId } from './tool-def.js';

/**
 * The same failure stamped with the tool the model actually called: a shared host arm (egress
 * behind `web_search`, process behind `git_status`) cannot know which tool it served. A
 * `refusedBeforeEffect` mark goes with it: the bracket judges the copy, not the original.
 */
export function withToolId(error: ToolDispatchError, toolId: ToolId): ToolDispatchError {
  if (error.toolId === toolId) return error;
  const stamped = restamped(error, toolId);
  return stamped !== error && isRefusedBeforeEffect(error) ? refusedBeforeEffect(stamped) : stamped;
}

function restamped(error: ToolDispatchError, toolId: ToolId): ToolDispatchError {
  const options = { cause: error.cause ?? error };
  if (error instanceof ToolPolicyError) {
    const guardReason = error.guardReason === undefined ? {} : { guardReason: error.guardReason };
    const narrowed = error.recoverable ? {} : { recoverable: false as const };
    return new ToolPolicyError(toolId, error.reason, { ...options, ...guardReason, ...narrowed });
  }
  if (error instanceof ToolDeniedByUserError) {
    const userReason = error.userReason === undefined ? {} : { userReason: error.userReason };
    return new ToolDeniedByUserError(toolId, error.reason, { ...options, ...userReason });
  }
  if (error instanceof ToolArgsInvalidError) {
    return new ToolArgsInvalidError(toolId, error.issues, options);
  }
  if (error instanceof ToolUnavailableError) {
    const reason = error.reason === undefined ? {} : { reason: error.reason };
    return new ToolUnavailableError(toolId, error.capability, { ...options, ...reason });
  }
  if (error instanceof ToolExecutionError) {
    const detail = error.detail === undefined ? {} : { detail: error.detail };
    return new ToolExecutionError(toolId, error.reason, {
      ...options,
      ...detail,
      recoverable: error.recoverable,
      retryable: error.retryable,
      correctable: error.correctable,
    });
  }
  if (error instanceof ToolCancelledError) return new ToolCancelledError(toolId, options);
  return error;
}
