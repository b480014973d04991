import { projectFailedResult } from '../dispatch/project-events.js';
import type { ToolDispatchEvents } from '../dispatch/tool-call.js';
import { classifyToolError, ToolExecutionError } from '../errors.js';
import type { CorrectionBudget } from './correction-budget.js';

/** What a loop does with one failed call; a fed-back one carries its `tool_result` projection. */
export type FailureLadderStep =
  | {
      readonly action: 'feed_back';
      readonly text: string;
      readonly result: ToolDispatchEvents['result'];
    }
  | { readonly action: 'end_turn'; readonly error: unknown };

/** How a surface applies the ladder. */
export interface FailureLadderOptions {
  readonly budget: CorrectionBudget;
  /** Identifies the model response the call came from; calls of one response share a charge. */
  readonly round: unknown;
  /** The chat surfaces' opt-in: feed recoverable failures back instead of ending the turn. */
  readonly recoverToolFailures?: boolean;
}

/**
 * The seed's failure ladder for one failed call: cancellation and fatal errors end the turn with
 * the typed error; correctable ones (and recoverable ones where the surface opts in) are fed back
 * while the round budget lasts, then end the turn as the error they are.
 */
export function applyFailureLadder(
  error: unknown,
  options: FailureLadderOptions,
): FailureLadderStep {
  const errorClass = classifyToolError(error);
  const feedable =
    errorClass === 'correctable' ||
    (errorClass === 'recoverable' && options.recoverToolFailures === true);
  if (!feedable || !options.budget.charge(options.round)) return { action: 'end_turn', error };
  return {
    action: 'feed_back',
    text: feedbackText(error as Error),
    result: projectFailedResult(error as Error),
  };
}

/**
 * The model-facing text of a fed-back failure: the typed error's fixed, secret-free message, plus
 * the tool's own bounded, redacted `detail` when it reported one (an MCP `isError` result).
 */
export function feedbackText(error: Error): string {
  if (error instanceof ToolExecutionError && error.detail !== undefined) {
    return `${error.message}\n${error.detail}`;
  }
  return error.message;
}
