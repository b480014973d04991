import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { debugError } from '../debug-log.js';
import { createHttpToken, hasHttpToken, writeHttpTokenFile } from './http-token.js';
import { HTTP_TOKEN_HELP, httpTokenChallenge } from './http-token-challenge.js';
import { createHttpSessionTable, type HttpSession } from './http-session-table.js';
import { isLoopbackRequest, loopbackAllowlist, type LoopbackAllowlist } from './loopback-origin.js';

/** Concurrent sessions one loopback server keeps; more is a client bug or an attack. */
export const MAX_HTTP_SESSIONS = 32;

/** How long a session may sit idle (no open request, no running call) before it ends. */
export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 10 * 60 * 1000;

// setTimeout fires at once past this; a longer timeout would silently mean none.
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A Streamable HTTP endpoint on loopback. */
export interface ServedHttp {
  /** `http://127.0.0.1:<port>/mcp?token=<token>`: all a client needs, so it is a secret. */
  readonly url: string;
  close(): Promise<void>;
}

/** Options of `serveHttp`. */
export interface ServeHttpOptions {
  readonly port: number;
  /** Opens one client session (its server and its own run); called once per initialize. */
  readonly openSession: () => Promise<HttpSession>;
  /** Also write the token here (a new 0600 file, removed on close) for a client config. */
  readonly tokenFile?: string;
  /** Idle sessions end after this long (default 10 minutes). */
  readonly sessionIdleTimeoutMs?: number;
  /** Live sessions at most (default 32); past it the longest-idle one is evicted. */
  readonly maxSessions?: number;
}

export type { HttpSession } from './http-session-table.js';

/**
 * Serves MCP over Streamable HTTP on 127.0.0.1 only, one `Server` per session. DNS rebinding is
 * refused twice: here, before any work, and by the SDK transport's own Host/Origin check. Every
 * request must carry this start's random token: loopback is shared by every local user, and
 * without it any of them could run the granted tools as us and approve its own elicitations.
 * A session ends on DELETE, when its transport closes, idle past the timeout, evicted as the
 * longest idle when the table is full, when its last open response dropped mid-answer (its client
 * left), or at shutdown; each end withdraws its pending approvals first, then sweeps its run.
 */
export async function serveHttp(options: ServeHttpOptions): Promise<ServedHttp> {
  const {
    sessionIdleTimeoutMs = DEFAULT_SESSION_IDLE_TIMEOUT_MS,
    maxSessions = MAX_HTTP_SESSIONS,
  } = options;
  if (
    typeof sessionIdleTimeoutMs !== 'number' ||
    !(sessionIdleTimeoutMs > 0) ||
    sessionIdleTimeoutMs > MAX_TIMER_MS
  )
    throw new TypeError('toolhost: sessionIdleTimeoutMs must be positive and at most 2^31-1');
  if (!Number.isSafeInteger(maxSessions) || maxSessions < 1)
    throw new TypeError('toolhost: maxSessions must be a positive integer');
  const token = createHttpToken();
  const sessions = createHttpSessionTable({
    maxSessions,
    idleTimeoutMs: sessionIdleTimeoutMs,
  });
  // Filled once the port is known: until then nothing is allowed.
  let allowed: LoopbackAllowlist = { hosts: [], origins: [] };
  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      debugError('toolhost serve --http: request failed', error);
      if (!response.headersSent) respond(response, 500, 'internal error');
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!isLoopbackRequest(allowed, request.headers.host, request.headers.origin)) {
      return respond(response, 403, 'forbidden host or origin');
    }
    // Before the path and any session lookup: without the token nothing here is reachable,
    // not even which paths exist; a session id alone is never a credential.
    if (!hasHttpToken(request, token)) {
      response.setHeader('www-authenticate', httpTokenChallenge(request));
      return respond(response, 401, `missing or invalid token: ${HTTP_TOKEN_HELP}`);
    }
    const { pathname } = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (pathname !== '/mcp') return respond(response, 404, 'not found');
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const existing = sessions.get(sessionId);
      // The spec's answer to an ended (expired, evicted) session: 404 makes a client start anew.
      if (existing === undefined) return respond(response, 404, 'session not found');
      sessions.track(existing, response);
      if (request.method !== 'POST') return existing.transport.handleRequest(request, response);
      const read = await readBody(request);
      if (read.kind === 'too_large') return respond(response, 413, PAYLOAD_TOO_LARGE);
      if (read.kind === 'invalid')
        return respond(response, 400, 'Parse error: Invalid JSON', -32700);
      // No event store: a call's answer reaches its client only over this very response. If it
      // drops before every answer was written, those calls' approvals are withdrawn — only
      // theirs: the same client's other POSTs and its GET stream keep their calls approvable.
      const answered = existing.session.expectCalls(toolCallIds(read.value));
      response.once('close', () => answered(response.writableFinished));
      return existing.transport.handleRequest(request, response, read.value);
    }
    if (request.method !== 'POST') return respond(response, 400, 'missing or unknown session');
    const body = await readJson(request);
    if (!isInitializeRequest(body)) return respond(response, 400, 'missing or unknown session');
    if (!(await sessions.reserve())) return respond(response, 503, 'too many sessions');
    let session: HttpSession;
    try {
      session = await options.openSession();
    } catch (error) {
      sessions.unreserve();
      throw error;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: MAX_HTTP_REQUEST_BYTES,
      enableDnsRebindingProtection: true,
      allowedHosts: [...allowed.hosts],
      allowedOrigins: [...allowed.origins],
      onsessioninitialized: (id) => sessions.bind(entry, id),
      // Awaited before DELETE is answered: once the client hears 200, the run is swept.
      onsessionclosed: () => sessions.end(entry),
    });
    const entry = sessions.add(transport, session);
    // Before `connect`, which chains its own handler after this one: a closed transport (DELETE,
    // shutdown, the SDK giving up on it) frees its place and sweeps its run.
    transport.onclose = () => void sessions.end(entry);
    sessions.track(entry, response);
    try {
      await session.server.connect(transport);
      await transport.handleRequest(request, response, body);
    } catch (error) {
      await sessions.end(entry);
      throw error;
    }
    // An initialize the transport refused never got an id: nothing can reach it again.
    if (transport.sessionId === undefined) await sessions.end(entry);
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  allowed = loopbackAllowlist(port);
  const close = async () => {
    // Every session's run is swept before `close` resolves: nothing outlives the server.
    await sessions.closeAll();
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

/**
 * The largest request body `serve --http` reads (the initialize here, every later request in the
 * SDK's transport): the HTTP session's tool server fits its schemas' `maxLength`s to it, so a
 * request the served schema allows always arrives.
 */
export const MAX_HTTP_REQUEST_BYTES = 16 * 1024 * 1024;
const MAX_BODY_BYTES = MAX_HTTP_REQUEST_BYTES;

// The SDK transport's own answer to a body over its cap, kept now that the body is read here.
const PAYLOAD_TOO_LARGE = `Payload Too Large: Request body must not exceed ${MAX_BODY_BYTES} bytes`;

type ReadBody =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'too_large' }
  | { readonly kind: 'invalid' };

/** A POST's body, read here so the ids of the calls it carries are known to its response. */
async function readBody(request: IncomingMessage): Promise<ReadBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return { kind: 'too_large' };
    chunks.push(chunk);
  }
  try {
    return { kind: 'json', value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch {
    return { kind: 'invalid' };
  }
}

/** The ids of the `tools/call` requests in a JSON-RPC message or batch. */
function toolCallIds(body: unknown): (string | number)[] {
  const ids: (string | number)[] = [];
  for (const message of Array.isArray(body) ? (body as unknown[]) : [body]) {
    if (typeof message !== 'object' || message === null) continue;
    const { method, id } = message as { method?: unknown; id?: unknown };
    if (method === 'tools/call' && (typeof id === 'string' || typeof id === 'number')) ids.push(id);
  }
  return ids;
}

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

function respond(response: ServerResponse, status: number, message: string, code = -32000): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
