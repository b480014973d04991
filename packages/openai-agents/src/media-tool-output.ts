import { toModelText } from '@toolhost/core/bound';
import type { DurableMediaPart } from '@toolhost/core/host';
import {
  reportedContentClosing,
  reportedContentOpening,
  type RandomNonce,
} from '@toolhost/core/loop';

/** A structured function-tool output item the Agents SDK turns into Responses input. */
export type AgentToolOutputItem =
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'image';
      readonly image: { readonly data: string; readonly mediaType: string };
    };

/**
 * The output of a call that returned media. A function tool cannot add a user message, so the
 * media stays in the tool's own output (a tool position) between the reference loop's nonce
 * fence lines.
 */
export function mediaToolOutput(
  result: unknown,
  media: readonly DurableMediaPart[],
  randomNonce: RandomNonce,
): AgentToolOutputItem[] {
  const nonce = randomNonce();
  return [
    { type: 'text', text: toModelText(result) },
    { type: 'text', text: reportedContentOpening(nonce) },
    ...media.map(mediaItem),
    { type: 'text', text: reportedContentClosing(nonce) },
  ];
}

function mediaItem(part: DurableMediaPart): AgentToolOutputItem {
  // An image the host read (a `read_file` of a PNG, a `read_media` range) travels as the SDK's
  // tool-output image; anything else, or an image without its bytes, is a reference.
  if (part.data !== undefined && part.mimeType.startsWith('image/')) {
    const data = Buffer.from(part.data).toString('base64');
    return { type: 'image', image: { data, mediaType: part.mimeType } };
  }
  return {
    type: 'text',
    text: `[media ${part.handle} (${part.mimeType}, ${part.sizeBytes} bytes)]`,
  };
}
