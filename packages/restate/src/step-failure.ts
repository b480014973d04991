import * as restate from '@restatedev/restate-sdk';
import { ToolDispatchError, ToolExecutionError, type AnyToolDef } from '@toolhost/core';

import {
  decodeDispatchError,
  decodeFromMessage,
  encodeDispatchError,
  encodeInMessage,
  statusOf,
} from './dispatch-error-codec.js';
import { mayRetry } from './step-retry-policy.js';

/**
 * How a failed dispatch leaves its step. A typed refusal is terminal, carrying its fields as
 * metadata so every replay rebuilds the same error; a transient host failure is retried only
 * for a tool that may retry (a read) — a side effect's step never is. A raw throw (a bug, not a
 * dispatch error) is treated like a host failure, with a fixed message.
 */
export function toStepFailure(error: unknown, def: AnyToolDef): Error {
  const typed =
    error instanceof ToolDispatchError
      ? error
      : new ToolExecutionError(def.id, 'host_error', { cause: error });
  if (mayRetry(def) && typed instanceof ToolExecutionError && typed.retryable) {
    // The message is all Restate keeps of a retried failure: it carries the wire form, so the
    // terminal error it becomes once attempts run out rebuilds to the same typed error.
    return new Error(encodeInMessage(typed));
  }
  return new restate.TerminalError(typed.message, {
    errorCode: statusOf(typed),
    metadata: { ...encodeDispatchError(typed) },
  });
}

/**
 * The typed error a failed step stands for: from its metadata, or from the message a retried
 * failure carried. A terminal error of any other origin fails the call closed, without its text.
 */
export function rebuildStepError(
  error: restate.TerminalError,
  def: AnyToolDef,
  requestedName: string,
): ToolDispatchError {
  return (
    decodeDispatchError(error.metadata, requestedName) ??
    decodeDispatchError(decodeFromMessage(error.message), requestedName) ??
    new ToolExecutionError(def.id, 'step_failed', { retryable: false })
  );
}
