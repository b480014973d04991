import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolPolicyError } from '@toolhost/core';
import { fetch as undiciFetch } from 'undici';
import { createPinnedDispatcher } from '../egress/create-pinned-dispatcher.js';
import { resolveDestination } from '../egress/resolve-destination.js';
import type { McpHttpServerDeclaration } from './mcp-arm-options.js';

/** Why an HTTP server declaration was refused before any connection. */
export type McpHttpRefusal = 'insecure_url' | 'invalid_url' | 'ssrf_blocked' | 'not_found';

/** A refused Streamable HTTP endpoint (the reason is a fixed code; the URL stays off it). */
export class McpHttpRefusedError extends Error {
  override readonly name = 'McpHttpRefusedError';
  constructor(
    readonly reason: McpHttpRefusal,
    options: { readonly cause?: unknown } = {},
  ) {
    super(`toolhost: mcp http server refused: ${reason}`, options);
  }
}

/** The endpoint of one HTTP server and the only `fetch` its transport may use. */
export interface McpHttpEndpoint {
  readonly url: URL;
  readonly fetch: FetchLike;
  /** Releases the pinned connection pool. */
  close(): Promise<void>;
}

/**
 * The single place a Streamable HTTP MCP connection gets its `fetch`. https goes through the
 * egress arm's SSRF floor: the name is resolved once, every answer must be global unicast, and
 * each connection dials only those IPs with SNI and certificate checks on the name. The one
 * declared `allowLocal` host:port (a developer's own server) skips the floor and may be plain http.
 */
export async function createMcpHttpFetch(
  declaration: McpHttpServerDeclaration,
): Promise<McpHttpEndpoint> {
  const url = URL.canParse(declaration.url) ? new URL(declaration.url) : undefined;
  if (url === undefined || url.username !== '' || url.password !== '') {
    // Userinfo in the URL is a literal secret in the config; credentials come from headers.
    throw new McpHttpRefusedError('invalid_url');
  }
  const isDeclaredLocal =
    declaration.allowLocal !== undefined && url.host === declaration.allowLocal.toLowerCase();
  if (isDeclaredLocal && (url.protocol === 'http:' || url.protocol === 'https:')) {
    return {
      url,
      fetch: sameOrigin(url, (input, init) => fetch(input, init)),
      close: async () => {},
    };
  }
  if (url.protocol !== 'https:') throw new McpHttpRefusedError('insecure_url');
  let destination: Awaited<ReturnType<typeof resolveDestination>>;
  try {
    destination = await resolveDestination(url, { toolId: 'mcp_call', allowRanges: [] });
  } catch (error) {
    const reason = error instanceof ToolPolicyError ? 'ssrf_blocked' : 'not_found';
    throw new McpHttpRefusedError(reason, { cause: error });
  }
  const dispatcher = createPinnedDispatcher({ destination });
  const pinnedFetch: FetchLike = (input, init) =>
    // undici's own fetch, because only it honours `dispatcher`; its Response is the web one.
    undiciFetch(input, { ...(init as object), dispatcher }) as unknown as Promise<Response>;
  return { url, fetch: sameOrigin(url, pinnedFetch), close: () => dispatcher.close() };
}

// The pinned pool is valid for one origin only; the SDK follows redirects within the origin
// itself, and the raw fetch never follows one, so auth headers never reach another host.
function sameOrigin(origin: URL, base: FetchLike): FetchLike {
  return (input, init) => {
    const target = new URL(input);
    if (target.origin !== origin.origin) {
      return Promise.reject(new McpHttpRefusedError('insecure_url'));
    }
    return base(target, { ...init, redirect: 'manual' });
  };
}
