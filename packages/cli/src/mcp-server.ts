import type { Readable, Writable } from 'node:stream';
import { createToolServer, type ToolServerOptions } from './mcp/create-tool-server.js';
import { createCallerPresence } from './mcp/caller-presence.js';
import { createServeGates } from './mcp/serve-call-limits.js';
import { openHttpToolSession, sharedRun, type ServeRun } from './mcp/http-tool-session.js';
import { serveHttp } from './mcp/serve-http.js';
import { StdioFrameTransport } from './mcp/stdio-frame-transport.js';
import { openServeSession, type McpServeSessionOptions } from './mcp/serve-session.js';

export type { ToolServerOptions } from './mcp/create-tool-server.js';
export type { McpServeSessionOptions } from './mcp/serve-session.js';
export type { ServeCallLimits } from './mcp/serve-call-limits.js';

/** How the server is reached: stdio (default) or Streamable HTTP on 127.0.0.1. */
export type McpServeTransport =
  | {
      readonly kind: 'stdio';
      /** Defaults to the process's own stdin/stdout. */
      readonly stdin?: Readable;
      readonly stdout?: Writable;
      /** Where a refused or dropped frame is said (default: the process's stderr). */
      readonly stderr?: Writable;
    }
  | {
      readonly kind: 'http';
      /** 0 (default) picks a free port; the host is always 127.0.0.1. */
      readonly port?: number;
      /** Also write the per-start token to this new 0600 file (removed on close). */
      readonly tokenFile?: string;
      /** A session with no open request and no running call ends after this (default 10 min). */
      readonly sessionIdleTimeoutMs?: number;
    };

/**
 * Options of `startMcpServer`, one of two shapes:
 * - `{ settings, io }` (what `toolhost serve` passes): opens a CLI session from the effective
 *   settings, serves it (stdio unless `transport` says http) and resolves once a stdio client
 *   hung up, or SIGINT/SIGTERM stopped it, and the session closed.
 *   No flags and no config means cwd as root, `sandboxed`, `ask`, no commands, no domains.
 * - `{ registry, tools, createContext, mode, paths }`: serves an existing registry and resolves
 *   as soon as it listens; the caller closes it.
 */
export type McpServerOptions = (ToolServerOptions | McpServeSessionOptions) & {
  readonly transport?: McpServeTransport;
  /** `serve --ui`'s pending approvals: every run's calls that need a human wait on the page. */
  readonly approvalBroker?: ToolServerOptions['approvalBroker'];
  /** Told each served run's registry once that run closed (`serve --ui`: its session ended). */
  readonly onRunClosed?: (registry: ToolServerOptions['registry']) => void;
  /**
   * The control tower's session id of a served run (`serve --ui`), given its registry: the run's
   * approvals wait under the id its calls and spills are shown under.
   */
  readonly runSessionId?: (registry: ToolServerOptions['registry']) => string | undefined;
};

/** A running (or, for the session shape, finished) MCP server. */
export interface RunningMcpServer {
  /** The Streamable HTTP endpoint with its token (`…/mcp?token=…`), when serving over HTTP. */
  readonly url?: string;
  /** Settles when a stdio client hung up (stdin ended) or `close()` ran. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/** Exposes granted tools as an MCP server; every `tools/call` runs the full registry pipeline. */
export async function startMcpServer(options: McpServerOptions): Promise<RunningMcpServer> {
  if (!('settings' in options)) return listen(options, options.transport ?? { kind: 'stdio' });
  const served = await openServeSession(options);
  const broker =
    options.approvalBroker === undefined ? {} : { approvalBroker: options.approvalBroker };
  const sessionOf = (registry: ToolServerOptions['registry']) => {
    const sessionId = options.runSessionId?.(registry);
    return sessionId === undefined ? {} : { sessionId };
  };
  try {
    const io = options.io;
    const running = await listen(
      { ...served.serverOptions, ...broker, ...sessionOf(served.serverOptions.registry) },
      options.transport ??
        (io === undefined
          ? { kind: 'stdio' }
          : { kind: 'stdio', stdin: io.stdin, stdout: io.stdout, stderr: io.stderr }),
      // Each HTTP client session gets its own run (spills, media, quota), swept when it ends.
      async () => {
        const run = await served.openRun();
        return {
          serverOptions: {
            ...run.serverOptions,
            ...broker,
            ...sessionOf(run.serverOptions.registry),
          },
          close: async () => {
            try {
              await run.close();
            } finally {
              options.onRunClosed?.(run.serverOptions.registry);
            }
          },
        };
      },
    );
    if (running.url !== undefined) {
      // The endpoint is the one thing an HTTP client needs; stdout stays free for protocol use.
      (io?.stderr ?? process.stderr).write(
        `toolhost: MCP over Streamable HTTP at ${running.url} (loopback only; Ctrl-C stops)\n`,
      );
    }
    const stop = () => void running.close();
    process.once('SIGINT', stop).once('SIGTERM', stop);
    await running.closed;
    process.off('SIGINT', stop).off('SIGTERM', stop);
    return running;
  } finally {
    try {
      await served.close();
    } finally {
      options.onRunClosed?.(served.serverOptions.registry);
    }
  }
}

async function listen(
  options: ToolServerOptions,
  transport: McpServeTransport,
  openRun: () => Promise<ServeRun> = sharedRun(options),
): Promise<RunningMcpServer> {
  // One global gate per server, whatever the number of sessions; checked before listening.
  const gates = createServeGates(options.callLimits);
  if (transport.kind === 'http') {
    let markClosed: () => void = () => undefined;
    const closed = new Promise<void>((resolve) => (markClosed = resolve));
    const served = await serveHttp({
      port: transport.port ?? 0,
      openSession: () => openHttpToolSession(openRun, gates),
      ...(transport.tokenFile === undefined ? {} : { tokenFile: transport.tokenFile }),
      ...(transport.sessionIdleTimeoutMs === undefined
        ? {}
        : { sessionIdleTimeoutMs: transport.sessionIdleTimeoutMs }),
    });
    return {
      url: served.url,
      closed,
      close: async () => {
        await served.close();
        markClosed();
      },
    };
  }
  const stdin = transport.stdin ?? process.stdin;
  const presence = createCallerPresence();
  const server = createToolServer(options, gates, presence);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  const stderr = transport.stderr ?? process.stderr;
  await server.connect(
    new StdioFrameTransport({
      stdin,
      stdout: transport.stdout ?? process.stdout,
      // A frame the server cannot take is refused, never the end of the server: say so.
      warn: (line) => void stderr.write(`toolhost serve: ${line}\n`),
    }),
  );
  // The SDK's stdio transport never notices a client hanging up; stdin ending is that signal.
  // Its calls' approvals are withdrawn first: closing the server aborts them as cancelled.
  stdin.once('end', () => {
    presence.leaveAll();
    void server.close();
  });
  return { closed, close: () => server.close() };
}
