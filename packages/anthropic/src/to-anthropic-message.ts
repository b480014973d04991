import { unwrapUntrusted, type ToolCallRound } from '@toolhost/core';
import { toModelText } from '@toolhost/core/bound';
import type { DurableMediaPart } from '@toolhost/core/host';
import type { ToolResultPart, UserMessage } from '@toolhost/core/loop';
import type Anthropic from '@anthropic-ai/sdk';

/** One block a `tool_result` may hold: text, an image or a document. */
export type ToolResultContentBlock = Exclude<
  Anthropic.ToolResultBlockParam['content'],
  string | undefined
>[number];

/**
 * The user message that answers a `tool_use` turn: one `tool_result` per call, in call order.
 * A call that returned media carries it inside its own `tool_result` (a tool position, tied to the
 * call), between the round's reported-content fence lines. This is the placement site where the
 * untrusted values are unwrapped, into tool positions only.
 */
export function toAnthropicMessage(round: ToolCallRound): Anthropic.MessageParam {
  const media = fencedMediaByCall(round.attachments);
  return {
    role: 'user',
    content: round.toolMessage.content.map((part) =>
      toolResultBlock(part, media.get(part.toolCallId)),
    ),
  };
}

/** One call's `tool_result`: its bounded text, then its fenced media blocks, if any. */
export function toolResultBlock(
  part: ToolResultPart,
  media?: readonly ToolResultContentBlock[],
): Anthropic.ToolResultBlockParam {
  const text = toModelText(unwrapUntrusted(part.content));
  return {
    type: 'tool_result',
    tool_use_id: part.toolCallId,
    content: media === undefined ? text : [{ type: 'text', text }, ...media],
    ...(part.isError ? { is_error: true } : {}),
  };
}

// Each call's media as content blocks between the round's own fence lines (fresh nonce per round).
function fencedMediaByCall(
  attachments: UserMessage | undefined,
): Map<string, ToolResultContentBlock[]> {
  const byCall = new Map<string, ToolResultContentBlock[]>();
  const parts = attachments?.content ?? [];
  const [opening, closing] = [parts[0], parts.at(-1)];
  if (opening?.type !== 'text' || closing?.type !== 'text') return byCall;
  for (const part of parts) {
    if (part.type !== 'media') continue;
    const blocks = byCall.get(part.toolCallId) ?? [];
    blocks.push(mediaBlock(unwrapUntrusted(part.media)));
    byCall.set(part.toolCallId, blocks);
  }
  for (const [id, blocks] of byCall) byCall.set(id, [opening, ...blocks, closing]);
  return byCall;
}

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

function mediaBlock(media: DurableMediaPart): ToolResultContentBlock {
  // Bytes travel inline only when the host attached them (a viewable `read_file`, `read_media`).
  if (media.data !== undefined) {
    const data = Buffer.from(media.data).toString('base64');
    if (IMAGE_TYPES.has(media.mimeType)) {
      const media_type = media.mimeType as Anthropic.Base64ImageSource['media_type'];
      return { type: 'image', source: { type: 'base64', media_type, data } };
    }
    if (media.mimeType === 'application/pdf') {
      return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data } };
    }
  }
  return {
    type: 'text',
    text: `[media ${media.handle} (${media.mimeType}, ${media.sizeBytes} bytes)]`,
  };
}
