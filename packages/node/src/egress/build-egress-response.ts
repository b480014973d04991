import type { EgressRequest, EgressResponse } from '@toolhost/core';
import type { Dispatcher } from 'undici';

import type { CallSignal } from './call-signal.js';
import { raceAbort } from './race-abort.js';
import { readResponseBody } from './read-response-body.js';
import type { ResolvedEgressOptions } from './resolve-egress-options.js';

/** What `buildEgressResponse` needs: the last hop's response and what the call resolved. */
export interface BuildEgressResponseInput {
  readonly request: EgressRequest;
  readonly response: Dispatcher.ResponseData;
  readonly url: URL;
  /** The resolved secret, so no copy of it reaches the result. */
  readonly credential: string | undefined;
  readonly options: ResolvedEgressOptions;
  readonly signal: CallSignal;
}

/**
 * Reads the last hop into an `EgressResponse`: bounded body, binary to the media sink,
 * `set-cookie` and any header or body text echoing the credential kept from the model.
 */
export async function buildEgressResponse(
  input: BuildEgressResponseInput,
): Promise<EgressResponse> {
  const { request, response, url, credential, options, signal } = input;
  const { toolId } = options;
  const headers = responseHeaders(response.headers, credential);
  const read = await readResponseBody({
    toolId,
    body: response.body,
    contentType: single(response.headers['content-type']),
    maxBytes: options.maxBodyBytes,
  });
  signal.throwIfAborted();
  // A redirect can echo the secret into the final URL as easily as into the body.
  const href = credential === undefined ? url.href : url.href.replaceAll(credential, '[redacted]');
  const base = { status: response.statusCode, headers, url: href };
  if (read.kind === 'binary') {
    // Bytes cannot be redacted without corrupting them, and read_media would hand them to the
    // model: a binary answer that echoes the secret is withheld whole. (A view, not a copy.)
    const view = Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength);
    if (credential !== undefined && view.includes(credential)) {
      return { ...base, body: `[binary body withheld: it echoes the request credential]` };
    }
    if (options.media === undefined) {
      return { ...base, body: `[binary body: ${read.bytes.byteLength} bytes of ${read.mimeType}]` };
    }
    const scopes = request.mediaScope === undefined ? [] : [request.mediaScope];
    const media = await raceAbort(
      options.media.put(read.bytes, { mimeType: read.mimeType, scopes }),
      signal,
    );
    return { ...base, body: '', media };
  }
  // An echo endpoint would hand the secret straight back to the model.
  const text =
    credential === undefined ? read.text : read.text.replaceAll(credential, '[redacted]');
  if (read.truncatedAt === undefined) return { ...base, body: text };
  // The cap can fall inside an echoed secret: its first characters must not end the text.
  const cut = credential === undefined ? text : withoutTrailingPrefix(text, credential);
  const declared = Number(single(response.headers['content-length']));
  const byteLength = Number.isSafeInteger(declared) && declared > 0 ? declared : read.truncatedAt;
  const marker = `\n[… truncated: body exceeded ${options.maxBodyBytes} bytes; full output unavailable (egress body cap) …]`;
  return { ...base, body: `${cut}${marker}`, truncated: { byteLength } };
}

/** `text` without its longest ending that is a beginning of `secret`. */
function withoutTrailingPrefix(text: string, secret: string): string {
  for (let length = Math.min(secret.length - 1, text.length); length > 0; length -= 1) {
    if (text.endsWith(secret.slice(0, length))) return text.slice(0, text.length - length);
  }
  return text;
}

const DROPPED_RESPONSE_HEADERS = new Set(['set-cookie', 'set-cookie2']);

function responseHeaders(
  raw: Dispatcher.ResponseData['headers'],
  credential: string | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined || DROPPED_RESPONSE_HEADERS.has(name)) continue;
    const joined = Array.isArray(value) ? value.join(', ') : value;
    if (credential !== undefined && joined.includes(credential)) continue;
    headers[name] = joined;
  }
  return headers;
}

/** The first value of a header undici may hand back as a list. */
export function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
