import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

// A JSON-RPC id: an integer or a JSON string literal (no raw control characters).
const ID = String.raw`(-?\d{1,16}|"(?:[^"\\\u0000-\u001f]|\\.){0,256}")`;
// `{"id": …` or `{"jsonrpc":"2.0","id": …` at the very start of the frame.
const HEAD = new RegExp(
  String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}\s*[,}]`,
  'u',
);
// `…,"id": …}` closing the frame: one brace, so the member is the top-level object's own.
const TAIL = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${ID}\s*\}\s*$`, 'u');
const METHOD = /"method"\s*:/u;

/**
 * The id of a request frame too large to parse, from its first and last bytes: the id is a
 * top-level member that opens the object (most clients) or closes it (the SDK's client writes
 * it last). Undefined unless the frame also names a method (only a request gets an answer) and
 * the id is found at either end; a member deeper inside is never taken for it.
 */
export function recoverRequestId(head: string, tail: string): RequestId | undefined {
  if (!METHOD.test(head) && !METHOD.test(tail)) return undefined;
  const literal = HEAD.exec(head)?.[1] ?? TAIL.exec(tail)?.[1];
  if (literal === undefined) return undefined;
  try {
    const id: unknown = JSON.parse(literal);
    return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id))
      ? id
      : undefined;
  } catch {
    return undefined;
  }
}
