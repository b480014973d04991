// The Messages API's rule a conversation must keep: every `tool_use` of an assistant message is
// answered by a `tool_result` at the start of the very next user message.
type Block = { readonly type: string; readonly id?: string; readonly tool_use_id?: string };
type Message = { readonly role: string; readonly content: string | readonly Block[] };

/** The API's refusal text for `body`, or `undefined` when every `tool_use` is answered. */
export function unansweredToolUse(body: unknown): string | undefined {
  const messages = (body as { messages?: readonly Message[] } | undefined)?.messages ?? [];
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    const ids = message.content.flatMap((block) =>
      block.type === 'tool_use' && block.id !== undefined ? [block.id] : [],
    );
    if (ids.length === 0) continue;
    const next = messages[index + 1];
    const answers = typeof next?.content === 'string' || next?.role !== 'user' ? [] : next.content;
    const leading = answers.slice(0, ids.length).map((block) => block.tool_use_id);
    if (ids.some((id) => !leading.includes(id))) {
      return `messages.${index + 1}: tool_use ids were found without tool_result blocks immediately after`;
    }
  }
  return undefined;
}
