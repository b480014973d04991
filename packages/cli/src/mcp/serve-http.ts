import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createHttpToken, hasHttpToken, writeHttpTokenFile } from './http-token.js';

/** Concurrent sessions one loopback server keeps; more is a client bug or an attack. */
export const MAX_HTTP_SESSIONS = 32;

/** A Streamable HTTP endpoint on loopback. */
export interface ServedHttp {
  /** `http://127.0.0.1:<port>/mcp?token=<token>`: all a client needs, so it is a secret. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves MCP over Streamable HTTP on 127.0.0.1 only, one `Server` per session. DNS rebinding is
 * refused twice: here, before any work, and by the SDK transport's own Host/Origin check. Every
 * request must carry this start's random token: loopback is shared by every local user, and
 * without it any of them could run the granted tools as us and approve its own elicitations.
 */
export async function serveHttp(options: {
  readonly port: number;
  readonly createServer: () => Server;
  /** Also write the token here (a new 0600 file, removed on close) for a client config. */
  readonly tokenFile?: string;
}): Promise<ServedHttp> {
  const token = createHttpToken();
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const allowed = { hosts: [] as string[], origins: [] as string[] };
  const http = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) respond(response, 500, 'internal error');
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // A page on an attacker's domain that re-resolves to 127.0.0.1 still sends its own Host.
    const origin = request.headers.origin;
    if (
      !allowed.hosts.includes(request.headers.host ?? '') ||
      (origin !== undefined && !allowed.origins.includes(origin))
    ) {
      return respond(response, 403, 'forbidden host or origin');
    }
    // Before the path and any session lookup: without the token nothing here is reachable,
    // not even which paths exist; a session id alone is never a credential.
    if (!hasHttpToken(request, token)) {
      response.setHeader('www-authenticate', 'Bearer');
      return respond(response, 401, 'missing or invalid token');
    }
    const { pathname } = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (pathname !== '/mcp') return respond(response, 404, 'not found');
    const sessionId = request.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing !== undefined) return existing.handleRequest(request, response);
    if (request.method !== 'POST') return respond(response, 400, 'missing or unknown session');
    const body = await readJson(request);
    if (!isInitializeRequest(body)) return respond(response, 400, 'missing or unknown session');
    if (sessions.size >= MAX_HTTP_SESSIONS) return respond(response, 503, 'too many sessions');
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableDnsRebindingProtection: true,
      allowedHosts: allowed.hosts,
      allowedOrigins: allowed.origins,
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await options.createServer().connect(transport);
    await transport.handleRequest(request, response, body);
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  allowed.hosts.push(`127.0.0.1:${port}`, `localhost:${port}`);
  allowed.origins.push(`http://127.0.0.1:${port}`, `http://localhost:${port}`);
  const close = async () => {
    await Promise.all([...sessions.values()].map((transport) => transport.close()));
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  let removeTokenFile: () => Promise<void> = async () => undefined;
  if (options.tokenFile !== undefined) {
    try {
      removeTokenFile = await writeHttpTokenFile(options.tokenFile, token);
    } catch (error) {
      await close();
      throw error;
    }
  }
  // base64url needs no escaping; the query form is what a client pasting the URL sends back.
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  url.searchParams.set('token', token);
  return {
    url: url.href,
    close: async () => {
      await close();
      await removeTokenFile();
    },
  };
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function respond(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
