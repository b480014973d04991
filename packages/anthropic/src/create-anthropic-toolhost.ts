import {
  createCorrectionBudget,
  runToolCalls,
  toProviderTools,
  type ToolhostAdapterOptions,
} from '@toolhost/core';
import type { AbortSignalLike } from '@toolhost/core/host';
import {
  createTurnLimit,
  resolveAdapterOptions,
  type LoopRegistry,
  type LoopToolCall,
  type TurnLimit,
} from '@toolhost/core/loop';
import type Anthropic from '@anthropic-ai/sdk';
import { closeToolUses } from './close-tool-uses.js';
import {
  startRunnerTurn,
  type AnthropicRunnerTurn,
  type AnthropicRunnerTurnOptions,
} from './start-runner-turn.js';
import { toAnthropicMessage, toolResultBlock } from './to-anthropic-message.js';

/** The granted tools for `messages.create({ tools })`, and a turn factory to answer them. */
export interface AnthropicToolhost {
  /** `{ name, description, input_schema }` per granted tool; config-only keys never appear. */
  readonly tools: Anthropic.Tool[];
  /** Starts one agent turn: a fresh correction budget and turn limit. */
  startTurn(options?: AnthropicTurnOptions): AnthropicToolTurn;
  /** Starts one turn of the SDK's `client.beta.messages.toolRunner` over toolhost's pipeline. */
  startRunnerTurn(options?: AnthropicRunnerTurnOptions): AnthropicRunnerTurn;
}

/** Options of one turn. */
export interface AnthropicTurnOptions {
  /** Cancels the running tool and every call after it. */
  readonly signal?: AbortSignalLike;
  /** Model rounds in this turn; default 16. */
  readonly maxTurns?: number;
}

/** One agent turn over the Messages API. */
export interface AnthropicToolTurn extends Pick<TurnLimit, 'take' | 'used' | 'exhausted'> {
  /**
   * Runs the `tool_use` blocks of `message` and returns the user message to append, or
   * `undefined` when the model asked for no tool. Rejects with the typed toolhost error when a
   * call ends the turn (fatal, denied, cancelled, or the correction budget spent).
   */
  toolResults(
    message: Pick<Anthropic.Message, 'content'>,
  ): Promise<Anthropic.MessageParam | undefined>;
  /**
   * After `toolResults(message)` rejected with `error`: the user message that answers every
   * `tool_use` of `message` (real results for the calls that ran, the fixed error text for the
   * one that ended the turn, "not run" after it), so the conversation stays valid to continue.
   */
  closeToolUses(
    message: Pick<Anthropic.Message, 'content'>,
    error: unknown,
  ): Anthropic.MessageParam;
}

/** toolhost for `@anthropic-ai/sdk` Messages: tool definitions and the `tool_use` → `tool_result` step. */
export function createAnthropicToolhost(
  registry: LoopRegistry,
  options: ToolhostAdapterOptions,
): AnthropicToolhost {
  const resolved = resolveAdapterOptions(registry, options);
  // Only the model-visible projection crosses: config-only keys are not in it.
  const tools: Anthropic.Tool[] = toProviderTools(resolved.tools, 'anthropic');
  const authority = {
    ...(options.hostCallOptions === undefined ? {} : { hostCallOptions: options.hostCallOptions }),
    ...(options.beforeDispatch === undefined ? {} : { beforeDispatch: options.beforeDispatch }),
  };
  return {
    tools,
    startRunnerTurn: (turnOptions) =>
      startRunnerTurn({ registry, resolved, tools, options: authority }, turnOptions),
    startTurn(turnOptions = {}) {
      const budget = createCorrectionBudget(resolved.maxCorrections);
      const turns = createTurnLimit(turnOptions.maxTurns);
      const { signal } = turnOptions;
      // The results of the last response's calls that ran, for `closeToolUses`.
      const settled = new Map<string, Anthropic.ToolResultBlockParam>();
      return {
        take: () => turns.take(),
        get used() {
          return turns.used;
        },
        get exhausted() {
          return turns.exhausted;
        },
        async toolResults(message) {
          const calls = toolCalls(message);
          if (calls.length === 0) return undefined;
          settled.clear();
          const round = await runToolCalls(calls, {
            registry,
            ctx: (call) => resolved.contextFor(call.name, signal === undefined ? {} : { signal }),
            budget,
            recoverToolFailures: resolved.recoverToolFailures,
            randomNonce: resolved.randomNonce,
            onResult: (part) => settled.set(part.toolCallId, toolResultBlock(part)),
            ...authority,
          });
          return toAnthropicMessage(round);
        },
        closeToolUses: (message, error) => closeToolUses(message, settled, error),
      };
    },
  };
}

function toolCalls(message: Pick<Anthropic.Message, 'content'>): LoopToolCall[] {
  return message.content.flatMap((block) =>
    block.type === 'tool_use' ? [{ id: block.id, name: block.name, args: block.input }] : [],
  );
}
