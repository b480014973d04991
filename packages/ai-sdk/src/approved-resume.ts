import type { ModelMessage } from 'ai';

/**
 * True when `execute` runs for a call the human approved: the SDK runs those when a turn resumes
 * with a `tool-approval-response`, before its first step, where no stop condition is consulted.
 * The approval flow keeps the response in the last (tool) message, matched to its request by id.
 */
export function isApprovedResume(messages: readonly ModelMessage[], toolCallId: string): boolean {
  const last = messages.at(-1);
  if (last?.role !== 'tool') return false;
  const approved = new Set(
    last.content.flatMap((part) =>
      part.type === 'tool-approval-response' && part.approved ? [part.approvalId] : [],
    ),
  );
  if (approved.size === 0) return false;
  return messages.some(
    (message) =>
      message.role === 'assistant' &&
      typeof message.content !== 'string' &&
      message.content.some(
        (part) =>
          part.type === 'tool-approval-request' &&
          part.toolCallId === toolCallId &&
          approved.has(part.approvalId),
      ),
  );
}
