import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Readable, Writable } from 'node:stream';
import { createToolServer, type ToolServerOptions } from './mcp/create-tool-server.js';
import { serveHttp } from './mcp/serve-http.js';

/** How `toolhost serve` is reached: stdio (default) or Streamable HTTP on 127.0.0.1. */
export type McpServeTransport =
  | {
      readonly kind: 'stdio';
      /** Defaults to the process's own stdin/stdout. */
      readonly stdin?: Readable;
      readonly stdout?: Writable;
    }
  | {
      readonly kind: 'http';
      /** 0 (default) picks a free port; the host is always 127.0.0.1. */
      readonly port?: number;
    };

/**
 * Options of `startMcpServer`. The CLI builds them from a session:
 * `{ registry: session.registry, tools: session.grantedTools, createContext: (id, signal) =>
 * session.context(id, signal, audit), mode: settings.mode, paths: { root, stateDir, configFile } }`.
 * The safe defaults (no flags, no config) are the session's: cwd as root, `sandboxed` tier, `ask`
 * mode, the read-only grant, no commands, no domains.
 */
export interface McpServerOptions extends ToolServerOptions {
  readonly transport?: McpServeTransport;
}

/** A running MCP server. */
export interface RunningMcpServer {
  /** The Streamable HTTP endpoint, when serving over HTTP. */
  readonly url?: string;
  /** Settles when a stdio client hung up (stdin ended) or `close()` ran. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/** Exposes the granted tools of a registry as an MCP server, every call through the full pipeline. */
export async function startMcpServer(options: McpServerOptions): Promise<RunningMcpServer> {
  const transport = options.transport ?? { kind: 'stdio' };
  if (transport.kind === 'http') {
    let markClosed: () => void = () => undefined;
    const closed = new Promise<void>((resolve) => (markClosed = resolve));
    const served = await serveHttp({
      port: transport.port ?? 0,
      createServer: () => createToolServer(options),
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
  const server = createToolServer(options);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(new StdioServerTransport(stdin, transport.stdout ?? process.stdout));
  // The SDK's stdio transport never notices a client hanging up; stdin ending is that signal.
  stdin.once('end', () => void server.close());
  return { closed, close: () => server.close() };
}
