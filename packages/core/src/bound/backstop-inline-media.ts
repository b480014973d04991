import { isBase64Unit, replaceBase64Runs } from './base64-runs.js';
import {
  binaryMediaMarker,
  INLINE_BASE64_MIN_RUN,
  inlineMediaMarker,
} from './inline-media-marker.js';

export {
  binaryMediaMarker,
  INLINE_BASE64_MIN_RUN,
  inlineMediaMarker,
} from './inline-media-marker.js';

/**
 * The inline-media backstop (ADR-0031): media reaches the model only as a durable `media://`
 * handle, so a `data:` URI, a bare base64 run of `INLINE_BASE64_MIN_RUN` characters or more, a
 * `{ kind: 'base64' }` object or raw binary in a model-facing result is replaced by a marker.
 * Returns `value` itself when there is nothing to replace (the common case allocates nothing);
 * otherwise a copy, the input left as it was.
 */
export function backstopInlineMedia(value: unknown): unknown {
  if (typeof value === 'string') return scrubInlineMedia(value);
  if (typeof value !== 'object' || value === null) return value;
  return backstopObject(value, [], 0);
}

/**
 * `text` with every `data:` URI and every bare base64 run of `INLINE_BASE64_MIN_RUN` or more
 * replaced by `inlineMediaMarker`; `text` itself when it has neither. A text shorter than the run
 * costs one native `indexOf`; a longer one samples one character per run length, so ordinary
 * text is never scanned character by character in JavaScript.
 */
export function scrubInlineMedia(text: string): string {
  const withoutUris = text.includes('data:') ? replaceDataUris(text) : text;
  return withoutUris.length < INLINE_BASE64_MIN_RUN ? withoutUris : replaceBase64Runs(withoutUris);
}

/** True for an object that declares itself inline base64 media (`{ kind: 'base64', … }`). */
export function isInlineBase64Object(value: object): boolean {
  return Object.hasOwn(value, 'kind') && (value as { kind?: unknown }).kind === 'base64';
}

/** True for an `ArrayBuffer`, a `SharedArrayBuffer` or any view of one (typed arrays, Buffer). */
export function isBinary(value: object): value is ArrayBufferLike | ArrayBufferView {
  return (
    ArrayBuffer.isView(value) ||
    value instanceof ArrayBuffer ||
    (typeof SharedArrayBuffer === 'function' && value instanceof SharedArrayBuffer)
  );
}

// Deeper than this the walk stops and the rest is replaced: a check that cannot finish fails
// closed rather than passing what it never looked at.
const MAX_DEPTH = 256;
const TOO_DEEP = '[result nested too deep]';

function backstopObject(value: object, ancestors: object[], depth: number): unknown {
  if (isBinary(value)) return binaryMediaMarker(value.byteLength);
  if (isInlineBase64Object(value)) return binaryMediaMarker(undefined);
  // A cycle is left for bounding, which turns an unserialisable result into a fixed note.
  if (ancestors.includes(value)) return value;
  if (depth >= MAX_DEPTH) return TOO_DEEP;
  const toJson = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJson === 'function') {
    return backstopJsonForm(value, toJson as () => unknown, ancestors, depth);
  }
  // Only ancestors are cycles: a sibling seen twice is checked at each occurrence.
  ancestors.push(value);
  const checked = Array.isArray(value)
    ? backstopArray(value, ancestors, depth)
    : backstopFields(value, ancestors, depth);
  ancestors.pop();
  return checked;
}

function backstopArray(items: readonly unknown[], ancestors: object[], depth: number): unknown {
  let copy: unknown[] | undefined;
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    const next = backstopChild(item, ancestors, depth);
    if (next === item) continue;
    copy ??= items.slice();
    copy[index] = next;
  }
  return copy ?? items;
}

function backstopFields(value: object, ancestors: object[], depth: number): unknown {
  const fields = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(fields)) {
    const field = fields[key];
    const next = backstopChild(field, ancestors, depth);
    if (next === field) continue;
    copy ??= copyFields(value);
    defineOwn(copy, key, next);
  }
  return copy ?? value;
}

function backstopChild(value: unknown, ancestors: object[], depth: number): unknown {
  if (typeof value === 'string') return scrubInlineMedia(value);
  if (typeof value !== 'object' || value === null) return value;
  return backstopObject(value, ancestors, depth + 1);
}

// The model sees what `JSON.stringify` makes of the object, so that is what is checked.
function backstopJsonForm(
  value: object,
  toJson: () => unknown,
  ancestors: object[],
  depth: number,
): unknown {
  let json: unknown;
  try {
    json = toJson.call(value);
  } catch {
    // A throwing `toJSON` makes the result unserialisable; bounding says so.
    return value;
  }
  if (json === value) return value;
  const next = backstopChild(json, ancestors, depth);
  return next === json ? value : next;
}

// Same prototype, so a plain object still renders as one; own keys defined, never assigned, so
// an own `__proto__` key stays data.
function copyFields(value: object): Record<string, unknown> {
  const copy = Object.create(Object.getPrototypeOf(value) as object | null) as Record<
    string,
    unknown
  >;
  for (const key of Object.keys(value))
    defineOwn(copy, key, (value as Record<string, unknown>)[key]);
  return copy;
}

function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

// `data:` + an RFC 2397 media type and/or parameters (`;base64`) + `,`. A type or a parameter is
// required, so a YAML `data:` key or `metadata:,` is never taken for a URI.
const DATA_URI_HEAD =
  /data:(?:[A-Za-z]{1,32}\/[A-Za-z0-9.+_-]{1,128}(?:;[A-Za-z0-9.+_-]{1,64}(?:=[^\s;,"'<>]{1,128})?){0,8}|(?:;[A-Za-z0-9.+_-]{1,64}(?:=[^\s;,"'<>]{1,128})?){1,8}),/y;

function replaceDataUris(text: string): string {
  let output = '';
  let copiedUpTo = 0;
  for (let at = text.indexOf('data:'); at !== -1; at = text.indexOf('data:', at + 1)) {
    // `metadata:image/png,` is not a URI: the scheme starts a token.
    if (at > 0 && isUriPrefixChar(text.charCodeAt(at - 1))) continue;
    DATA_URI_HEAD.lastIndex = at;
    if (!DATA_URI_HEAD.test(text)) continue;
    const payloadStart = DATA_URI_HEAD.lastIndex;
    // A base64 payload ends at the first character outside base64; another may hold `.` and `~`,
    // but not as its last character, which ends the sentence, as a linkifier reads it.
    const isBase64 = text.startsWith(';base64,', payloadStart - 8);
    let end = payloadStart;
    while (end < text.length && isPayloadChar(text.charCodeAt(end), isBase64)) end++;
    while (end > payloadStart && text.charCodeAt(end - 1) === FULL_STOP) end--;
    // A bare head is code that builds a URI (`'data:image/png;base64,' + bytes`), not media.
    if (end === payloadStart) continue;
    output += text.slice(copiedUpTo, at) + inlineMediaMarker(end - at);
    copiedUpTo = end;
    at = end - 1;
  }
  return copiedUpTo === 0 ? text : output + text.slice(copiedUpTo);
}

const EQUALS = 0x3d;
const FULL_STOP = 0x2e;
const PERCENT = 0x25;
const TILDE = 0x7e;

// A URI payload: base64 (with `=` and percent-escaped padding), and in a non-base64 payload the
// unreserved marks too; it stops at a quote, a space, a bracket or a comma, where the surrounding
// markup or code resumes.
function isPayloadChar(unit: number, base64Only: boolean): boolean {
  if (isBase64Unit(unit) || unit === EQUALS || unit === PERCENT) return true;
  return !base64Only && (unit === FULL_STOP || unit === TILDE);
}

function isUriPrefixChar(unit: number): boolean {
  return (
    (unit >= 0x41 && unit <= 0x5a) ||
    (unit >= 0x61 && unit <= 0x7a) ||
    (unit >= 0x30 && unit <= 0x39) ||
    unit === 0x2b ||
    unit === 0x2d ||
    unit === 0x2e ||
    unit === 0x5f
  );
}
