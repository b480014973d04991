import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { unwrapUntrusted } from '@toolhost/core';
import { toModelText } from '@toolhost/core/bound';
import type { LoopDispatchOutcome } from '@toolhost/core/loop';
import {
  DEFAULT_MAX_MEDIA_BYTES,
  toMediaContent,
  type MediaForwarding,
} from './to-media-content.js';

/**
 * A dispatch outcome as an MCP tool result: the bounded model-facing text, then the call's media
 * as `image`/`audio`/`resource` parts within the byte cap (a part past it is a line saying so).
 */
export async function toCallToolResult(
  outcome: LoopDispatchOutcome,
  forwarding: MediaForwarding = { maxBytes: DEFAULT_MAX_MEDIA_BYTES },
): Promise<CallToolResult> {
  const { result } = unwrapUntrusted(outcome.toolResult);
  const content: CallToolResult['content'] = [{ type: 'text', text: toModelText(result) }];
  const media =
    outcome.mediaAttachments === undefined ? [] : unwrapUntrusted(outcome.mediaAttachments);
  if (media.length > 0) content.push(...(await toMediaContent(media, forwarding)));
  return { content };
}
