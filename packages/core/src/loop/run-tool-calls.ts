import type { ToolDispatchContext, ToolJournalContext } from '../dispatch-context.js';
import { restoreRetentionRefusal } from '../dispatch/guard-retention.js';
import type { ToolDispatchEvents } from '../dispatch/tool-call.js';
import { ToolCancelledError, type ToolDispatchError } from '../errors.js';
import type { ToolHostCallOptions } from '../tool-host.js';
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
  /**
   * The runner's transient lifetime authority (`retainWork`) for this execution. Only this option
   * supplies it: a prepared `ctx` cannot, so any `ctx.hostCallOptions` is cleared without it.
   */
  readonly hostCallOptions?: ToolHostCallOptions;
  /** Synchronous trusted admission just before each host call; replaces `ctx.beforeDispatch`. */
  readonly beforeDispatch?: ToolDispatchContext['beforeDispatch'];
  /**
   * The durable effect journal of this run; replaces `ctx.journal`. A resumed conversation (the
   * same `runId`, the same call ids) replays its settled calls instead of repeating them.
   */
  readonly journal?: ToolJournalContext;
  /**
   * The model response these calls answer, for the one-charge-per-response budget when a surface
   * runs a response's calls one at a time; default: this call list is the whole response.
   */
  readonly round?: object;
  /**
   * Told of each call's result as it settles, so a surface can still answer the calls that ran
   * when a later one ends the turn (the API rejects a conversation with an unanswered call).
   */
  readonly onResult?: (part: ToolResultPart) => void;
}

/** The messages to append after the model response that asked for the calls. */
export interface ToolCallRound {
  /** One result per call, in call order: the tool position. */
  readonly toolMessage: ToolMessage;
  /** Every media attachment of the round, fenced as reported content, after the tool results. */
  readonly attachments?: UserMessage;
  /** The `tool_result` projections (`success: false`) of the failures fed back, in call order. */
  readonly failedResults?: readonly ToolDispatchEvents['result'][];
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
  const contextFor = contextSource(options);
  // One object per response: every failure of this response shares one budget charge.
  const round = options.round ?? {};
  const results: ToolResultPart[] = [];
  const media: CallMediaAttachments[] = [];
  const failedResults: ToolDispatchEvents['result'][] = [];
  for (const call of calls) {
    const ctx = contextFor(call);
    if (isAborted(ctx)) throw cancelledBefore(call, registry);
    try {
      const outcome = await registry.dispatch(call, ctx);
      const { result } = unwrapUntrusted(outcome.toolResult);
      results.push(settle(resultPart(call, false, markUntrusted(result)), options));
      if (outcome.mediaAttachments !== undefined) {
        media.push({ toolCallId: call.id, attachments: outcome.mediaAttachments });
      }
    } catch (error) {
      // Cancel wins over whatever the aborted call threw.
      if (isAborted(ctx) && !(error instanceof ToolCancelledError)) {
        throw cancelledBefore(call, registry);
      }
      // The runner gets its own refusal back; the ladder sees it as the fatal value it is.
      const step = applyFailureLadder(restoreRetentionRefusal(error), {
        budget,
        round,
        ...(options.recoverToolFailures === undefined
          ? {}
          : { recoverToolFailures: options.recoverToolFailures }),
      });
      if (step.action === 'end_turn') throw step.error;
      results.push(settle(resultPart(call, true, markUntrusted(step.text)), options));
      failedResults.push(step.result);
    }
  }
  const toolMessage: ToolMessage = { role: 'tool', content: results };
  const settled: ToolCallRound =
    failedResults.length === 0 ? { toolMessage } : { toolMessage, failedResults };
  if (media.length === 0) return settled;
  const attachments = fenceReportedMedia(media, (options.randomNonce ?? defaultRandomNonce)());
  return attachments === undefined ? settled : { ...settled, attachments };
}

// One context for every call when the turn has one (built once, not per call), else each
// call's own.
function contextSource(options: RunToolCallsOptions): (call: LoopToolCall) => ToolDispatchContext {
  const { ctx: prepared } = options;
  if (typeof prepared === 'function') return (call) => executionContext(prepared(call), options);
  const ctx = executionContext(prepared, options);
  return () => ctx;
}

// The execution's own authority replaces whatever the prepared context carried.
function executionContext(
  prepared: ToolDispatchContext,
  options: RunToolCallsOptions,
): ToolDispatchContext {
  const { hostCallOptions: _prepared, ...ctx } = prepared;
  const beforeDispatch = options.beforeDispatch ?? prepared.beforeDispatch;
  const journal = options.journal ?? prepared.journal;
  return {
    ...ctx,
    ...(options.hostCallOptions === undefined ? {} : { hostCallOptions: options.hostCallOptions }),
    ...(beforeDispatch === undefined ? {} : { beforeDispatch }),
    ...(journal === undefined ? {} : { journal }),
  };
}

function settle(part: ToolResultPart, options: RunToolCallsOptions): ToolResultPart {
  options.onResult?.(part);
  return part;
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
