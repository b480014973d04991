import { toModelText } from '@toolhost/core/bound';
import type { DurableMediaPart } from '@toolhost/core/host';
import {
  reportedContentClosing,
  reportedContentOpening,
  type RandomNonce,
} from '@toolhost/core/loop';
import type { Tool } from 'ai';

// `ai` does not re-export this type; derive it from the hook that returns it.
type ToolResultOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;

/**
 * The model-facing output of a call that returned media. AI SDK tools cannot add a user message,
 * so the media goes in the tool result itself (a tool position, never a system one), between the
 * same nonce fence lines the reference loop writes.
 */
export function mediaModelOutput(
  result: unknown,
  media: readonly DurableMediaPart[],
  randomNonce: RandomNonce,
): ToolResultOutput {
  const nonce = randomNonce();
  return {
    type: 'content',
    value: [
      { type: 'text', text: toModelText(result) },
      { type: 'text', text: reportedContentOpening(nonce) },
      ...media.map(mediaContent),
      { type: 'text', text: reportedContentClosing(nonce) },
    ],
  };
}

type ContentPart = Extract<ToolResultOutput, { type: 'content' }>['value'][number];

function mediaContent(part: DurableMediaPart): ContentPart {
  // Only bytes already read through `read_media` travel inline; a bare handle stays a reference.
  if (part.data === undefined) {
    return {
      type: 'text',
      text: `[media ${part.handle} (${part.mimeType}, ${part.sizeBytes} bytes)]`,
    };
  }
  const data = Buffer.from(part.data).toString('base64');
  return part.mimeType.startsWith('image/')
    ? { type: 'image-data', data, mediaType: part.mimeType }
    : { type: 'file-data', data, mediaType: part.mimeType };
}
