import * as restate from '@restatedev/restate-sdk';
import type { ToolId } from '@toolhost/core';
import type { AssistantMessage, LoopMessage, LoopToolCall } from '@toolhost/core/loop';

/** What the model is asked for one turn of a run. */
export interface ToolRunModelRequest {
  readonly runId: string;
  /** 0 for the first turn. */
  readonly turn: number;
  /** The conversation so far; tool results stay branded untrusted until the model's adapter places them. */
  readonly messages: readonly LoopMessage[];
  /** The tools the run is granted, for the provider's tool list (`toProviderTools`). */
  readonly tools: readonly ToolId[];
  /** Aborted when this attempt ends (a cancelled invocation, a lost connection): stop the call. */
  readonly signal: AbortSignal;
}

/** The model's answer: text, tool calls, or both. JSON only — it is journaled as a step. */
export interface ToolRunModelTurn {
  readonly text?: string;
  readonly toolCalls?: readonly LoopToolCall[];
}

/** One model turn; runs as a durable step, so a replay reads the answer instead of asking again. */
export type ToolRunModel = (request: ToolRunModelRequest) => Promise<ToolRunModelTurn>;

const MAX_TOOL_CALLS_PER_TURN = 128;

/**
 * The model's answer checked before it is journaled: a malformed one is a terminal failure of
 * the step (retrying the same model output would not mend it), not a loop of retries.
 */
export function checkModelTurn(turn: unknown): ToolRunModelTurn {
  if (typeof turn !== 'object' || turn === null || Array.isArray(turn)) {
    throw malformed('the model turn is not an object');
  }
  const { text, toolCalls } = turn as { readonly text?: unknown; readonly toolCalls?: unknown };
  if (text !== undefined && typeof text !== 'string') throw malformed('text is not a string');
  if (toolCalls === undefined) return text === undefined ? {} : { text };
  if (!Array.isArray(toolCalls) || toolCalls.length > MAX_TOOL_CALLS_PER_TURN) {
    throw malformed(`toolCalls is not an array of at most ${MAX_TOOL_CALLS_PER_TURN} calls`);
  }
  const ids = new Set<string>();
  const calls = toolCalls.map((call: unknown): LoopToolCall => {
    const { id, name, args } = (call ?? {}) as Record<string, unknown>;
    if (typeof id !== 'string' || id === '' || typeof name !== 'string' || name === '') {
      throw malformed('a tool call needs a non-empty string id and name');
    }
    if (ids.has(id)) throw malformed('two tool calls of one turn share an id');
    ids.add(id);
    return { id, name, args };
  });
  return text === undefined ? { toolCalls: calls } : { text, toolCalls: calls };
}

/** The assistant message echoing a turn, as the loop's messages hold it. */
export function assistantMessage(turn: ToolRunModelTurn): AssistantMessage {
  return {
    role: 'assistant',
    content: [
      ...(turn.text === undefined || turn.text === ''
        ? []
        : [{ type: 'text' as const, text: turn.text }]),
      ...(turn.toolCalls ?? []).map((call) => ({
        type: 'tool_call' as const,
        toolCallId: call.id,
        toolName: call.name,
        args: call.args,
      })),
    ],
  };
}

function malformed(detail: string): restate.TerminalError {
  return new restate.TerminalError(`toolhost: malformed model turn: ${detail}`, { errorCode: 502 });
}
