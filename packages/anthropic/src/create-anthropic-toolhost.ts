import {
  createCorrectionBudget,
  createTurnLimit,
  runToolCalls,
  toProviderTools,
  resolveAdapterOptions,
  type AbortSignalLike,
  type LoopRegistry,
  type LoopToolCall,
  type ToolhostAdapterOptions,
  type TurnLimit,
} from '@toolhost/core';
import type Anthropic from '@anthropic-ai/sdk';
import { toAnthropicMessage } from './to-anthropic-message.js';

/** The granted tools for `messages.create({ tools })`, and a turn factory to answer them. */
export interface AnthropicToolhost {
  /** `{ name, description, input_schema }` per granted tool; config-only keys never appear. */
  readonly tools: Anthropic.Tool[];
  /** Starts one agent turn: a fresh correction budget and turn limit. */
  startTurn(options?: AnthropicTurnOptions): AnthropicToolTurn;
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
}

/** toolhost for `@anthropic-ai/sdk` Messages: tool definitions and the `tool_use` → `tool_result` step. */
export function createAnthropicToolhost(
  registry: LoopRegistry,
  options: ToolhostAdapterOptions,
): AnthropicToolhost {
  const resolved = resolveAdapterOptions(registry, options);
  // Only the model-visible projection crosses: config-only keys are not in it.
  const tools: Anthropic.Tool[] = toProviderTools(resolved.tools, 'anthropic');
  return {
    tools,
    startTurn(turnOptions = {}) {
      const budget = createCorrectionBudget(resolved.maxCorrections);
      const turns = createTurnLimit(turnOptions.maxTurns);
      const { signal } = turnOptions;
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
          const round = await runToolCalls(calls, {
            registry,
            ctx: (call) => resolved.contextFor(call.name, signal === undefined ? {} : { signal }),
            budget,
            recoverToolFailures: resolved.recoverToolFailures,
            randomNonce: resolved.randomNonce,
          });
          return toAnthropicMessage(round);
        },
      };
    },
  };
}

function toolCalls(message: Pick<Anthropic.Message, 'content'>): LoopToolCall[] {
  return message.content.flatMap((block) =>
    block.type === 'tool_use' ? [{ id: block.id, name: block.name, args: block.input }] : [],
  );
}
