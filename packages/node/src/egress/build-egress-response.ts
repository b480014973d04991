import type { EgressRequest, EgressResponse } from '@toolhost/core/host';
import type { Dispatcher } from 'undici';

import type { CallSignal } from './call-signal.js';
import { ownedUntilSettled } from './owned-until-settled.js';
import { readResponseBody } from './read-response-body.js';
import {
  credentialForms,
  echoesCredential,
  redactCredentialEcho,
  withoutTrailingEcho,
} from './redact-credential-echo.js';
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
 * `set-cookie` and any header or body text echoing the credential kept from the model. An echo
 * counts in every form a reader can undo (JSON/percent/HTML escapes, base64/base64url, see
 * `credentialForms`): text and the final URL have each echo replaced by `[redacted]` (withheld
 * whole if redaction cannot clear it), a header carrying one is dropped, a binary body withheld.
 */
export async function buildEgressResponse(
  input: BuildEgressResponseInput,
): Promise<EgressResponse> {
  const { request, response, url, credential, options, signal } = input;
  const { toolId } = options;
  const forms = credential === undefined ? undefined : credentialForms(credential);
  const headers = responseHeaders(response.headers, forms);
  const read = await readResponseBody({
    toolId,
    body: response.body,
    contentType: single(response.headers['content-type']),
    maxBytes: options.maxBodyBytes,
  });
  signal.throwIfAborted();
  // A redirect can echo the secret into the final URL as easily as into the body.
  const href = forms === undefined ? url.href : (redactCredentialEcho(url.href, forms) ?? WITHHELD);
  const base = { status: response.statusCode, headers, url: href };
  if (read.kind === 'binary') {
    // Bytes cannot be redacted without corrupting them, and read_media would hand them to the
    // model: a binary answer that echoes the secret is withheld whole. (A view, not a copy.)
    const view = Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength);
    // latin-1 keeps one character per byte, so a secret's bytes read back as the secret.
    if (forms !== undefined && echoesCredential(view.toString('latin1'), forms)) {
      return { ...base, body: `[binary body withheld: it echoes the request credential]` };
    }
    if (options.media === undefined) {
      return { ...base, body: `[binary body: ${read.bytes.byteLength} bytes of ${read.mimeType}]` };
    }
    const scopes = request.mediaScope === undefined ? [] : [request.mediaScope];
    const media = await ownedUntilSettled(
      options.media.put(read.bytes, { mimeType: read.mimeType, scopes }),
      signal,
    );
    return { ...base, body: '', media };
  }
  // An echo endpoint would hand the secret straight back to the model, and web_search's
  // JSON.parse undoes `\u00XX` for it: escaped forms are redacted like the raw one.
  const text = forms === undefined ? read.text : redactCredentialEcho(read.text, forms);
  if (text === undefined) return { ...base, body: WITHHELD_BODY };
  if (read.truncatedAt === undefined) return { ...base, body: text };
  // The cap can fall inside an echoed secret: its first characters must not end the text.
  const cut = forms === undefined ? text : withoutTrailingEcho(text, forms);
  const declared = Number(single(response.headers['content-length']));
  const byteLength = Number.isSafeInteger(declared) && declared > 0 ? declared : read.truncatedAt;
  const marker = `\n[… truncated: body exceeded ${options.maxBodyBytes} bytes; full output unavailable (egress body cap) …]`;
  return { ...base, body: `${cut}${marker}`, truncated: { byteLength } };
}

const WITHHELD = '[redacted]';
const WITHHELD_BODY = '[body withheld: it echoes the request credential]';

const DROPPED_RESPONSE_HEADERS = new Set(['set-cookie', 'set-cookie2']);

function responseHeaders(
  raw: Dispatcher.ResponseData['headers'],
  forms: readonly string[] | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined || DROPPED_RESPONSE_HEADERS.has(name)) continue;
    const joined = Array.isArray(value) ? value.join(', ') : value;
    if (forms !== undefined && echoesCredential(joined, forms)) continue;
    headers[name] = joined;
  }
  return headers;
}

/** The first value of a header undici may hand back as a list. */
export function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
