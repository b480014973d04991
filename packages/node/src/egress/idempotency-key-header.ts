import { ToolExecutionError, type ToolId } from '@toolhost/core';

/** The request header a journaled call's key rides on (IETF httpapi idempotency-key draft). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

// sf-string (RFC 8941 §3.3.3): printable ASCII only; `"` and `\` are escaped.
const SF_STRING_CHARS = /^[\x20-\x7e]*$/;

/**
 * The header's value: the draft makes it a Structured Field String, so the key goes in double
 * quotes. A key outside printable ASCII has no sf-string form; it is the host's own value, so
 * that is a host fault, refused rather than mangled into a key the server would not recognise.
 */
export function toIdempotencyKeyHeader(toolId: ToolId, key: string): string {
  if (key === '' || !SF_STRING_CHARS.test(key)) {
    throw new ToolExecutionError(toolId, 'idempotency_key_invalid', { retryable: false });
  }
  return `"${key.replaceAll(/["\\]/g, (character) => `\\${character}`)}"`;
}
