import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { AbortSignalLike, DurableMediaPart, MediaStore } from '@toolhost/core/host';

/** Default cap on the media bytes one tool result carries to an MCP client (before base64). */
export const DEFAULT_MAX_MEDIA_BYTES = 4 * 1024 * 1024;

/** What sending a call's media needs: where handle-only parts are read, and the budget. */
export interface MediaForwarding {
  /** The host's media store; without it a handle-only part is named, not sent. */
  readonly store?: MediaStore;
  /** The call's media scope: a handle is read only when the store lists it for this scope. */
  readonly scope?: string;
  /** Raw bytes all media of one result may carry; a part past it is withheld whole. */
  readonly maxBytes: number;
  readonly signal?: AbortSignalLike;
}

// Raster types a client shows as an image; anything else (SVG is markup) goes as an opaque blob.
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/**
 * A call's media as MCP content parts: `image` for raster images, `audio` for audio, an embedded
 * `resource` blob for the rest and for partial slices, each within the result's byte budget. The
 * bytes are forwarded as data, never decoded or interpreted here.
 */
export async function toMediaContent(
  parts: readonly DurableMediaPart[],
  forwarding: MediaForwarding,
): Promise<ContentBlock[]> {
  const content: ContentBlock[] = [];
  let remaining = forwarding.maxBytes;
  for (const part of parts) {
    const loaded = await bytesOf(part, remaining, forwarding);
    if (typeof loaded === 'string') {
      content.push({ type: 'text', text: `[${describe(part)} not sent: ${loaded}]` });
      continue;
    }
    remaining -= loaded.byteLength;
    content.push(toBlock(part, loaded));
  }
  return content;
}

// The bytes to send, or why none are: a part over the budget is never read from the store.
async function bytesOf(
  part: DurableMediaPart,
  remaining: number,
  { store, scope, maxBytes, signal }: MediaForwarding,
): Promise<Uint8Array | string> {
  const overCap = `over the ${maxBytes}-byte media cap of one result`;
  if (part.data !== undefined) return part.data.byteLength > remaining ? overCap : part.data;
  if (store === undefined) return 'this server forwards no stored media';
  try {
    const info = scope === undefined ? undefined : await store.stat(part.handle, signal);
    // The same check as read_media's: a handle outside this call's scope is not read.
    if (info === undefined || scope === undefined || !info.allowedScopes.includes(scope)) {
      return 'not readable in this session';
    }
    if (info.sizeBytes > remaining) return overCap;
    if (info.sizeBytes === 0) return new Uint8Array(0);
    const bytes = await store.read(part.handle, { start: 0, end: info.sizeBytes - 1 }, signal);
    return bytes.byteLength === info.sizeBytes ? bytes : 'the stored object could not be read';
  } catch {
    // The call itself succeeded: a store that fails now costs the media, not the result.
    return 'the stored object could not be read';
  }
}

function toBlock(part: DurableMediaPart, bytes: Uint8Array): ContentBlock {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  const range = sliceOf(part);
  // A slice of an image is not an image: only a whole object is typed for display.
  if (range === undefined && IMAGE_TYPES.has(part.mimeType)) {
    return { type: 'image', data, mimeType: part.mimeType };
  }
  if (range === undefined && part.mimeType.startsWith('audio/')) {
    return { type: 'audio', data, mimeType: part.mimeType };
  }
  return {
    type: 'resource',
    resource:
      range === undefined
        ? { uri: part.handle, mimeType: part.mimeType, blob: data }
        : {
            uri: `${part.handle}#bytes=${range.start}-${range.end}`,
            mimeType: 'application/octet-stream',
            blob: data,
          },
  };
}

// A range covering the whole object is the object.
function sliceOf(part: DurableMediaPart): { start: number; end: number } | undefined {
  const { range } = part;
  if (range === undefined || (range.start === 0 && range.end === part.sizeBytes - 1)) {
    return undefined;
  }
  return range;
}

function describe(part: DurableMediaPart): string {
  return `media ${part.handle} (${part.mimeType}, ${part.sizeBytes} bytes)`;
}
