import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpHttpServerDeclaration } from './mcp-arm-options.js';

/** Why an HTTP server declaration was refused before any connection. */
export type McpHttpRefusal = 'insecure_url' | 'invalid_url';

/** A refused Streamable HTTP endpoint (the reason is a fixed code; the URL stays off it). */
export class McpHttpRefusedError extends Error {
  override readonly name = 'McpHttpRefusedError';
  constructor(readonly reason: McpHttpRefusal) {
    super(`toolhost: mcp http server refused: ${reason}`);
  }
}

/**
 * The single place a Streamable HTTP MCP connection gets its `fetch`. Only https is allowed,
 * except the one declared `allowLocal` host:port (a developer's loopback server).
 *
 * TODO(egress): route https through the egress arm's SSRF-checked, IP-pinned dispatcher once it
 * exists; until then the https-only rule is the floor here.
 */
export function createMcpHttpFetch(declaration: McpHttpServerDeclaration): {
  readonly url: URL;
  readonly fetch: FetchLike;
} {
  const url = URL.canParse(declaration.url) ? new URL(declaration.url) : undefined;
  if (url === undefined || url.username !== '' || url.password !== '') {
    // Userinfo in the URL is a literal secret in the config; credentials come from headers.
    throw new McpHttpRefusedError('invalid_url');
  }
  const isDeclaredLocal =
    declaration.allowLocal !== undefined && url.host === declaration.allowLocal.toLowerCase();
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isDeclaredLocal)) {
    throw new McpHttpRefusedError('insecure_url');
  }
  const fetchOnce: FetchLike = (input, init) =>
    // The SDK follows redirects itself (within the origin); the raw fetch never does, so a 30x
    // can never carry the auth headers to another host behind our back.
    fetch(input, { ...init, redirect: 'manual' });
  return { url, fetch: fetchOnce };
}
