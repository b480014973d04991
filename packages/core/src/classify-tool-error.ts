import {
  EffectJournalError,
  ToolArgsInvalidError,
  ToolCancelledError,
  ToolDispatchError,
  ToolExecutionError,
  UnknownToolError,
  type ToolErrorClass,
} from './errors.js';

/** Maps any thrown value onto the failure ladder: cancel first, then correctable, recoverable, fatal. */
export function classifyToolError(error: unknown): ToolErrorClass {
  if (error instanceof ToolCancelledError) return 'cancelled';
  if (!(error instanceof ToolDispatchError)) return 'fatal';
  // The journal's refusals guard an effect that may have happened: never fed back, never retried.
  if (error instanceof EffectJournalError) return 'fatal';
  if (error instanceof UnknownToolError || error instanceof ToolArgsInvalidError)
    return 'correctable';
  if (error instanceof ToolExecutionError && error.correctable) return 'correctable';
  return error.recoverable ? 'recoverable' : 'fatal';
}
