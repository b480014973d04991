import {
  toModelText,
  unwrapUntrusted,
  type DurableMediaPart,
  type ToolCallRound,
} from '@toolhost/core';
import type Anthropic from '@anthropic-ai/sdk';

type UserBlock = Exclude<Anthropic.MessageParam['content'], string>[number];

/**
 * The user message that answers a `tool_use` turn: every `tool_result` first (the API requires
 * them to lead), then the round's fenced media attachments. This is the placement site where
 * the untrusted values are unwrapped, into tool and user positions only.
 */
export function toAnthropicMessage(round: ToolCallRound): Anthropic.MessageParam {
  const content: UserBlock[] = round.toolMessage.content.map((part) => ({
    type: 'tool_result',
    tool_use_id: part.toolCallId,
    content: toModelText(unwrapUntrusted(part.content)),
    ...(part.isError ? { is_error: true } : {}),
  }));
  for (const part of round.attachments?.content ?? []) {
    content.push(part.type === 'text' ? part : mediaBlock(unwrapUntrusted(part.media)));
  }
  return { role: 'user', content };
}

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

function mediaBlock(media: DurableMediaPart): UserBlock {
  // Only bytes already read through `read_media` travel inline; a bare handle stays a reference.
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
