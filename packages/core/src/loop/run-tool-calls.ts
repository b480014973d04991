import type { ToolDispatchContext } from '../dispatch-context.js';
import { ToolCancelledError, type ToolDispatchError } from '../errors.js';
import { markUntrusted, unwrapUntrusted } from '../untrusted.js';
import { applyFailureLadder } from './apply-failure-ladder.js';
import type { CorrectionBudget } from './correction-budget.js';
import { fenceReportedMedia, type CallMediaAttachments } from './fence-reported-media.js';
import type { ToolMessage, ToolResultPart, UserMessage } from './loop-messages.js';
import type { LoopRegistry, LoopToolCall } from './loop-registry.js';
import { defaultRandomNonce, type RandomNonce } from './random-nonce.js';

/** What `runToolCalls` needs: the registry, the turn's context and its correction budget. */
export interface RunToolCallsOptions {
  readonly registry: Pick<LoopRegistry, 'dispatch' | 'get'>;
  /** The turn's context, or one per call (adapters put each tool's own config on its context). */
  readonly ctx: ToolDispatchContext | ((call: LoopToolCall) => ToolDispatchContext);
  /** Shared by every round of one turn (`createCorrectionBudget()`). */
  readonly budget: CorrectionBudget;
  /** Feed recoverable failures back (chat surfaces); workflows leave it off and fail fast. */
  readonly recoverToolFailures?: boolean;
  /** Source of the per-call fence nonce; defaults to `globalThis.crypto`. */
  readonly randomNonce?: RandomNonce;
}

/** The messages to append after the model response that asked for the calls. */
export interface ToolCallRound {
  /** One result per call, in call order: the tool position. */
  readonly toolMessage: ToolMessage;
  /** Every media attachment of the round, fenced as reported content, after the tool results. */
  readonly attachments?: UserMessage;
}

/**
 * Dispatches one model response's tool calls, in order, and returns the results to append.
 * Correctable failures come back as `isError` results while the budget lasts; a fatal failure or a
 * cancellation rejects with the typed error, ending the turn. Calls run one at a time so an
 * approval prompt, a cancellation or a fatal denial stops every call after it.
 */
export async function runToolCalls(
  calls: readonly LoopToolCall[],
  options: RunToolCallsOptions,
): Promise<ToolCallRound> {
  const { registry, budget } = options;
  const { ctx: context } = options;
  const contextFor = typeof context === 'function' ? context : () => context;
  // A fresh object per response: every failure of this response shares one budget charge.
  const round = {};
  const results: ToolResultPart[] = [];
  const media: CallMediaAttachments[] = [];
  for (const call of calls) {
    const ctx = contextFor(call);
    if (isAborted(ctx)) throw cancelledBefore(call, registry);
    try {
      const outcome = await registry.dispatch(call, ctx);
      const { result } = unwrapUntrusted(outcome.toolResult);
      results.push(resultPart(call, false, markUntrusted(result)));
      if (outcome.mediaAttachments !== undefined) {
        media.push({ toolCallId: call.id, attachments: outcome.mediaAttachments });
      }
    } catch (error) {
      // Cancel wins over whatever the aborted call threw.
      if (isAborted(ctx) && !(error instanceof ToolCancelledError)) {
        throw cancelledBefore(call, registry);
      }
      const step = applyFailureLadder(error, {
        budget,
        round,
        ...(options.recoverToolFailures === undefined
          ? {}
          : { recoverToolFailures: options.recoverToolFailures }),
      });
      if (step.action === 'end_turn') throw step.error;
      results.push(resultPart(call, true, markUntrusted(step.text)));
    }
  }
  const toolMessage: ToolMessage = { role: 'tool', content: results };
  if (media.length === 0) return { toolMessage };
  const attachments = fenceReportedMedia(media, (options.randomNonce ?? defaultRandomNonce)());
  return attachments === undefined ? { toolMessage } : { toolMessage, attachments };
}

function resultPart(
  call: LoopToolCall,
  isError: boolean,
  content: ToolResultPart['content'],
): ToolResultPart {
  return { type: 'tool_result', toolCallId: call.id, toolName: call.name, isError, content };
}

// Names the tool only when it is registered: a model-chosen name never reaches an error message.
function cancelledBefore(
  call: LoopToolCall,
  registry: Pick<LoopRegistry, 'get'>,
): ToolDispatchError {
  return new ToolCancelledError(registry.get(call.name)?.id);
}

// A function, not an inline check: the signal changes across awaits, which narrowing ignores.
function isAborted(ctx: ToolDispatchContext): boolean {
  return ctx.signal?.aborted === true;
}
