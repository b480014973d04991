import { betaTool } from '@anthropic-ai/sdk/helpers/beta/json-schema';
import type {
  BetaRunnableTool,
  BetaToolRunContext,
} from '@anthropic-ai/sdk/lib/tools/BetaRunnableTool';
import { ToolError } from '@anthropic-ai/sdk/lib/tools/ToolError';
import type { BetaToolResultContentBlockParam } from '@anthropic-ai/sdk/resources/beta';
import { createCorrectionBudget, runToolCalls, type ToolhostAdapterOptions } from '@toolhost/core';
import type { AbortSignalLike } from '@toolhost/core/host';
import type { LoopRegistry, ResolvedAdapterOptions } from '@toolhost/core/loop';
import type Anthropic from '@anthropic-ai/sdk';
import { endedTurnText, NOT_RUN_TEXT } from './close-tool-uses.js';
import { toAnthropicMessage } from './to-anthropic-message.js';

/** Options of one tool-runner turn. */
export interface AnthropicRunnerTurnOptions {
  /** Cancels the running tool and every call after it, and the runner's next request. */
  readonly signal?: AbortSignalLike;
}

/** One turn of `client.beta.messages.toolRunner` over toolhost's pipeline. */
export interface AnthropicRunnerTurn {
  /** A `betaTool` per granted tool, for the runner's `tools`. */
  readonly tools: BetaRunnableTool<Record<string, unknown>>[];
  /**
   * Pass as the runner's request `signal` (`toolRunner(params, { signal })`): aborted when a call
   * ends the turn, so the runner makes no further model call. A tool refuses to run without it.
   */
  readonly signal: AbortSignal;
  /** The typed toolhost error that ended the turn, for the runner's rejection; else `error`. */
  turnError(error: unknown): unknown;
}

/** What a runner turn is built from. */
export interface RunnerTurnDeps {
  readonly registry: LoopRegistry;
  readonly resolved: ResolvedAdapterOptions;
  readonly tools: readonly Anthropic.Tool[];
  readonly options: Pick<ToolhostAdapterOptions, 'hostCallOptions' | 'beforeDispatch'>;
}

type RunOutput = string | BetaToolResultContentBlockParam[];

/**
 * Starts a turn whose tools run inside the SDK's own tool runner. The runner runs a response's
 * calls concurrently; here they run one at a time, in the order the runner started them, share
 * one correction charge per response, and a call that ends the turn answers with its fixed text,
 * refuses every later call and aborts the runner's next request: every `tool_use` is answered
 * and the model is not called again.
 */
export function startRunnerTurn(
  { registry, resolved, tools, options }: RunnerTurnDeps,
  turnOptions: AnthropicRunnerTurnOptions = {},
): AnthropicRunnerTurn {
  const budget = createCorrectionBudget(resolved.maxCorrections);
  const controller = new AbortController();
  const { signal } = turnOptions;
  if (signal?.aborted === true) controller.abort();
  signal?.addEventListener('abort', () => controller.abort(), { once: true });
  let ended: { readonly error: unknown } | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let round: object | undefined;

  const endTurn = (error: unknown): never => {
    ended ??= { error };
    controller.abort();
    throw new ToolError(endedTurnText(ended.error));
  };
  const runCall = async (id: string, name: string, args: unknown, callRound: object) => {
    if (ended !== undefined) throw new ToolError(NOT_RUN_TEXT);
    let answer: Anthropic.ToolResultBlockParam | undefined;
    try {
      const result = await runToolCalls([{ id, name, args }], {
        registry,
        ctx: (call) => resolved.contextFor(call.name, signal === undefined ? {} : { signal }),
        budget,
        round: callRound,
        recoverToolFailures: resolved.recoverToolFailures,
        randomNonce: resolved.randomNonce,
        ...definedOf(options),
      });
      answer = toAnthropicMessage(result).content[0] as Anthropic.ToolResultBlockParam;
    } catch (error) {
      return endTurn(error);
    }
    const content = (answer.content ?? '') as RunOutput;
    if (answer.is_error === true) throw new ToolError(content);
    return content;
  };

  const runnable = tools.map((spec) =>
    betaTool({
      name: spec.name,
      description: spec.description ?? '',
      inputSchema: spec.input_schema as { type: 'object' },
      run: (input: unknown, context?: BetaToolRunContext): Promise<RunOutput> => {
        // Without the turn's signal the runner could not be stopped: fail closed, run nothing.
        if (context?.signal !== controller.signal) {
          return Promise.reject(
            new ToolError('not run: the tool runner was not given this turn’s signal'),
          );
        }
        const callRound = roundOf();
        const toolUse = context.toolUse;
        const next = queue.then(() => runCall(toolUse.id, spec.name, input, callRound));
        queue = next.catch(() => undefined);
        return next;
      },
    }),
  ) as BetaRunnableTool<Record<string, unknown>>[];

  // The runner starts every call of one response in the same task: they share a round.
  function roundOf(): object {
    if (round === undefined) {
      const current = {};
      round = current;
      setTimeout(() => {
        if (round === current) round = undefined;
      }, 0);
    }
    return round;
  }

  return {
    tools: runnable,
    signal: controller.signal,
    turnError: (error) => (ended === undefined ? error : ended.error),
  };
}

function definedOf(options: RunnerTurnDeps['options']) {
  return {
    ...(options.hostCallOptions === undefined ? {} : { hostCallOptions: options.hostCallOptions }),
    ...(options.beforeDispatch === undefined ? {} : { beforeDispatch: options.beforeDispatch }),
  };
}
