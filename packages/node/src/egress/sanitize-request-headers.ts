import { ToolPolicyError, type ToolId } from '@toolhost/core';

// Hop-by-hop headers belong to one connection (the client sets them); spoofing headers claim a
// client address or route a proxy would trust. A model never needs to send either.
const DROPPED = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'http2-settings',
  'forwarded',
  'via',
  'x-real-ip',
  'x-client-ip',
  'x-cluster-client-ip',
  'x-originating-ip',
  'x-remote-ip',
  'x-remote-addr',
  'true-client-ip',
  'cf-connecting-ip',
  'fastly-client-ip',
  // The body is read raw and capped: a compressed answer would defeat the text check and let
  // a small transfer inflate past the cap downstream, so the server must send identity.
  'accept-encoding',
]);
const DROPPED_PREFIXES = ['proxy-', 'x-forwarded-'];

// RFC 9110 `token`: anything else in a name could split or smuggle a request.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// CR, LF and NUL split or truncate a request; other controls and characters past Latin-1 have no
// defined wire form (undici would mangle or reject them later, as a confusing network error).
const FORBIDDEN_IN_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * Lowercases names, refuses a name or value that could split a request (CR, LF, NUL, any other
 * control, a non-token name) and silently drops hop-by-hop and spoofing headers.
 */
export function sanitizeRequestHeaders(
  toolId: ToolId,
  headers: Readonly<Record<string, string>>,
): Record<string, string> {
  const sanitized: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name) || typeof value !== 'string' || FORBIDDEN_IN_VALUE.test(value)) {
      throw new ToolPolicyError(toolId, 'header_not_allowed');
    }
    const lower = name.toLowerCase();
    if (isDroppedHeader(lower)) continue;
    sanitized[lower] = value;
  }
  return sanitized;
}

/** True for a header the egress arm never forwards from a caller. */
export function isDroppedHeader(lowerName: string): boolean {
  return DROPPED.has(lowerName) || DROPPED_PREFIXES.some((prefix) => lowerName.startsWith(prefix));
}
