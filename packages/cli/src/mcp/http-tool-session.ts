import type { CallLimiter } from './call-limiter.js';
import { createCallerPresence } from './caller-presence.js';
import { createToolServer, type ToolServerOptions } from './create-tool-server.js';
import type { HttpSession } from './http-session-table.js';
import type { ServeGates } from './serve-call-limits.js';
import { MAX_HTTP_REQUEST_BYTES } from './serve-http.js';

/** One served run: the options its MCP server is built from, and its teardown. */
export interface ServeRun {
  readonly serverOptions: ToolServerOptions;
  /** Sweeps the run's spills and media and frees its host. */
  close(): Promise<void>;
}

/**
 * Opens one HTTP client session: a fresh run from `openRun` and a tool server over it. The
 * session's call gate is kept so the table can tell a running call (even one its client stopped
 * waiting for) from an idle session.
 */
export async function openHttpToolSession(
  openRun: () => Promise<ServeRun>,
  gates: ServeGates,
): Promise<HttpSession> {
  const run = await openRun();
  let own: CallLimiter | undefined;
  // A body over the HTTP cap is refused with 413: the served schemas must not allow one.
  const { maxFrameBytes = MAX_HTTP_REQUEST_BYTES } = run.serverOptions;
  const serverOptions = {
    ...run.serverOptions,
    maxFrameBytes: Math.min(maxFrameBytes, MAX_HTTP_REQUEST_BYTES),
  };
  const presence = createCallerPresence();
  const server = createToolServer(
    serverOptions,
    { global: gates.global, forSession: () => (own = gates.forSession()) },
    presence,
  );
  return {
    server,
    busy: () => (own?.inFlight ?? 0) > 0,
    expectCalls: (requestIds) => presence.expect(requestIds),
    leave: () => presence.leaveAll(),
    close: () => run.close(),
  };
}

/** The run of a caller-built registry: shared by every session, and closed by its caller. */
export function sharedRun(serverOptions: ToolServerOptions): () => Promise<ServeRun> {
  return () => Promise.resolve({ serverOptions, close: () => Promise.resolve() });
}
