import type { ToolId } from './tool-def.js';

/** The discriminant every dispatch failure carries. */
export type ToolDispatchErrorCode =
  | 'unknown_tool'
  | 'tool_denied'
  | 'tool_args_invalid'
  | 'tool_unavailable'
  | 'tool_failed'
  | 'cancelled';

/** The closed run-level error code a failure maps to. */
export type RunErrorCode =
  'tool_failed' | 'tool_denied' | 'tool_unavailable' | 'validation' | 'cancelled';

/** What an agent loop does with a failure (the seed's failure ladder). */
export type ToolErrorClass = 'correctable' | 'recoverable' | 'fatal' | 'cancelled';

/** Base of every failure `dispatch` throws; switch on `code`. */
export abstract class ToolDispatchError extends Error {
  abstract readonly code: ToolDispatchErrorCode;
  abstract readonly runErrorCode: RunErrorCode;
  /** A fresh node retry may re-run the whole node. */
  readonly retryable: boolean = false;
  /** May be fed back to the model within the turn on surfaces that opt in. */
  readonly recoverable: boolean = false;
  readonly toolId?: ToolId;

  protected constructor(message: string, toolId: ToolId | undefined, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    if (toolId !== undefined) this.toolId = toolId;
  }
}
