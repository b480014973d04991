import { Readable } from 'node:stream';

import { ToolExecutionError, type ToolId } from '@toolhost/core';

/** A bounded body: UTF-8 text (cut at the cap) or binary bytes (refused past the cap). */
export type ReadBody =
  | { readonly kind: 'text'; readonly text: string; readonly truncatedAt?: number }
  | { readonly kind: 'binary'; readonly bytes: Uint8Array; readonly mimeType: string };

/** What `readResponseBody` needs. */
export interface ReadResponseBodyInput {
  readonly toolId: ToolId;
  readonly body: Readable | AsyncIterable<Uint8Array>;
  readonly contentType: string | undefined;
  readonly maxBytes: number;
}

const SNIFF_BYTES = 8192;

/**
 * Streams a body into at most `maxBytes`, then stops reading and destroys the stream (and its
 * connection), so a 1 GiB answer costs 10 MiB, not 1 GiB. Text past the cap
 * is cut on a code-point boundary; a cut binary would be corrupt, so it is `too_large`.
 */
export async function readResponseBody(input: ReadResponseBodyInput): Promise<ReadBody> {
  const { toolId, maxBytes } = input;
  const { chunks, kept, overflowed } =
    input.body instanceof Readable
      ? await collectReadable(input.body, maxBytes)
      : await collectIterable(input.body, maxBytes);
  const bytes = Buffer.concat(chunks, kept);
  const mimeType = mediaType(input.contentType);
  if (isBinary(mimeType, bytes.subarray(0, SNIFF_BYTES))) {
    if (overflowed) throw new ToolExecutionError(toolId, 'too_large');
    return { kind: 'binary', bytes, mimeType: mimeType ?? 'application/octet-stream' };
  }
  if (!overflowed) return { kind: 'text', text: bytes.toString('utf8') };
  const end = utf8Boundary(bytes);
  return { kind: 'text', text: bytes.subarray(0, end).toString('utf8'), truncatedAt: end };
}

interface Collected {
  readonly chunks: Uint8Array[];
  readonly kept: number;
  readonly overflowed: boolean;
}

// Events rather than for-await: a stream's async iterator costs more than a small body's
// whole read. Destroying at the cap ends the transfer (and its connection) then and there.
// The outcome is known at `end`, an error or the cut, but the read settles only at `close`: the
// spec's completion rule — `end` or `destroy()` does not mean the response let go of its socket,
// and a call that has settled must own no I/O any more.
function collectReadable(body: Readable, maxBytes: number): Promise<Collected> {
  return new Promise((resolve, reject) => {
    // A stream destroyed before we listen would never emit again.
    if (body.destroyed) {
      reject(new Error('body destroyed before it was read'));
      return;
    }
    const chunks: Uint8Array[] = [];
    let kept = 0;
    let outcome: (() => void) | undefined;
    const decide = (next: () => void): void => {
      if (outcome !== undefined) return;
      outcome = next;
      body.off('data', onData).off('end', onEnd);
      if (body.closed) finish();
    };
    const finish = (): void => {
      body.off('close', finish).off('error', onError);
      // Once settled the stream is no longer ours, but undici still emits `error` when it is
      // destroyed (our cut at the cap, or a late abort); unheard, that would crash the process.
      body.on('error', ignore);
      (outcome ?? (() => reject(new Error('body closed before its end'))))();
    };
    const onData = (chunk: Uint8Array): void => {
      if (kept + chunk.byteLength <= maxBytes) {
        chunks.push(chunk);
        kept += chunk.byteLength;
        return;
      }
      chunks.push(chunk.subarray(0, maxBytes - kept));
      decide(() => resolve({ chunks, kept: maxBytes, overflowed: true }));
      body.destroy();
    };
    const onEnd = (): void => decide(() => resolve({ chunks, kept, overflowed: false }));
    // An error after the cut is the cut's own echo: the outcome stands.
    const onError = (error: unknown): void => decide(() => reject(error as Error));
    body.on('data', onData).on('end', onEnd).on('error', onError).on('close', finish);
  });
}

function ignore(): void {}

async function collectIterable(
  body: AsyncIterable<Uint8Array>,
  maxBytes: number,
): Promise<Collected> {
  const chunks: Uint8Array[] = [];
  let kept = 0;
  for await (const chunk of body) {
    if (kept + chunk.byteLength > maxBytes) {
      chunks.push(chunk.subarray(0, maxBytes - kept));
      return { chunks, kept: maxBytes, overflowed: true };
    }
    chunks.push(chunk);
    kept += chunk.byteLength;
  }
  return { chunks, kept, overflowed: false };
}

const TEXT_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/javascript',
  'application/ecmascript',
  'application/x-www-form-urlencoded',
  'application/x-ndjson',
  'application/yaml',
  'application/x-yaml',
  'application/graphql',
  'application/toml',
  'image/svg+xml',
]);

function isBinary(mimeType: string | undefined, head: Uint8Array): boolean {
  // A NUL never occurs in UTF-8 text that means anything; it does in every binary format.
  if (head.includes(0)) return true;
  if (mimeType === undefined) return false;
  return !(
    mimeType.startsWith('text/') ||
    TEXT_TYPES.has(mimeType) ||
    mimeType.endsWith('+json') ||
    mimeType.endsWith('+xml')
  );
}

// The server's content-type is untrusted text; only a plain `type/subtype` is kept.
function mediaType(contentType: string | undefined): string | undefined {
  const essence = contentType?.split(';')[0]?.trim().toLowerCase();
  return essence !== undefined && /^[a-z0-9][\w.+-]*\/[\w.+-]+$/.test(essence)
    ? essence
    : undefined;
}

// Backs off over a trailing partial UTF-8 sequence so the cut never invents a U+FFFD.
function utf8Boundary(bytes: Uint8Array): number {
  let end = bytes.byteLength;
  for (let back = 1; back <= 4 && end - back >= 0; back += 1) {
    const byte = bytes[end - back] as number;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    if (length > back) end -= back;
    break;
  }
  return end;
}
