import { ToolDispatchError } from '@toolhost/core';
import type Anthropic from '@anthropic-ai/sdk';

/** What a call answers with when an earlier call of its response ended the turn. */
export const NOT_RUN_TEXT = 'not run: an earlier call in this response ended the turn';

/**
 * The user message that answers every `tool_use` of `message` after a call ended the turn, so
 * the conversation stays one the Messages API accepts (it rejects one that ends on an unanswered
 * `tool_use`). Calls that ran keep their real results; the call that ended the turn gets
 * `endedTurnText(error)`; the calls after it, which never ran, say so.
 */
export function closeToolUses(
  message: Pick<Anthropic.Message, 'content'>,
  settled: ReadonlyMap<string, Anthropic.ToolResultBlockParam>,
  error: unknown,
): Anthropic.MessageParam {
  let failed = false;
  const content = message.content.flatMap((block): Anthropic.ToolResultBlockParam[] => {
    if (block.type !== 'tool_use') return [];
    const result = settled.get(block.id);
    if (result !== undefined) return [result];
    // Calls run in order, so the first unanswered call is the one that ended the turn.
    const text = failed ? NOT_RUN_TEXT : endedTurnText(error);
    failed = true;
    return [{ type: 'tool_result', tool_use_id: block.id, content: text, is_error: true }];
  });
  return { role: 'user', content };
}

/**
 * The model-facing text of the call that ended the turn: a typed toolhost error's fixed,
 * secret-free message; anything else (a runner's opaque refusal) is never reflected.
 */
export function endedTurnText(error: unknown): string {
  if (error instanceof ToolDispatchError) return `${error.message}; the turn ended`;
  return 'tool call failed; the turn ended';
}
