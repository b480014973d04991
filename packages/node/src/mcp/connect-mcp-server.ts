import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolDispatchError } from '@toolhost/core';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerDeclaration, ResolvedMcpArmOptions } from './mcp-arm-options.js';
import { createMcpHttpFetch, McpHttpRefusedError, type McpHttpEndpoint } from './mcp-http-fetch.js';
import { buildMcpServerEnv, resolveDeclaredValues } from './resolve-declared-values.js';
import { StdioProcessTransport, type McpServerExit } from './stdio-process-transport.js';
import { resolveExecutable } from '../process/resolve-executable.js';

/** A live, initialised connection to one server. */
export interface McpConnection {
  readonly name: string;
  readonly client: Client;
  /** True once the transport closed: the server exited or the connection dropped. */
  readonly isClosed: () => boolean;
  /** How a stdio server's process ended, once it did; `undefined` for HTTP or while it runs. */
  readonly exit: () => McpServerExit | undefined;
  /** Shuts the connection down and, for stdio, reaps the server's process group. */
  close(): Promise<void>;
}

/** Why a server could not be connected; a fixed code, never the server's own text. */
export type McpConnectFailure =
  | 'credential_unresolved'
  | 'insecure_url'
  | 'invalid_url'
  | 'ssrf_blocked'
  | 'not_found'
  | 'spawn_failed'
  | 'connect_failed';

/** A connection attempt that failed, with its code (the cause stays for logs). */
export class McpConnectError extends Error {
  override readonly name = 'McpConnectError';
  constructor(
    readonly reason: McpConnectFailure,
    options: { readonly cause?: unknown } = {},
  ) {
    super(`toolhost: mcp server connection failed: ${reason}`, options);
  }
}

/** Builds the transport for a declaration, connects and runs the MCP initialize handshake. */
export async function connectMcpServer(
  name: string,
  declaration: McpServerDeclaration,
  options: ResolvedMcpArmOptions,
): Promise<McpConnection> {
  const { transport, release } = await createTransport(declaration, options);
  let closed = false;
  const client = new Client({ name: 'toolhost', version: '0.1.0' }, { capabilities: {} });
  client.onclose = () => {
    closed = true;
  };
  // Protocol noise (a bad frame, a stray response) must not crash the host; calls still fail.
  client.onerror = () => undefined;
  try {
    await client.connect(transport, { timeout: options.connectTimeoutMs });
  } catch (error) {
    await transport.close().catch(() => undefined);
    await release();
    throw new McpConnectError(isSpawnError(error) ? 'spawn_failed' : 'connect_failed', {
      cause: error,
    });
  }
  return {
    name,
    client,
    isClosed: () => closed,
    exit: () => (transport instanceof StdioProcessTransport ? transport.exit : undefined),
    close: async () => {
      if ('terminateSession' in transport && typeof transport.terminateSession === 'function') {
        // Tell an HTTP server to drop the session; a server that refuses is fine.
        await Promise.resolve(transport.terminateSession()).catch(() => undefined);
      }
      await client.close().catch(() => undefined);
      await release();
    },
  };
}

async function createTransport(
  declaration: McpServerDeclaration,
  options: ResolvedMcpArmOptions,
): Promise<{ transport: Transport; release: () => Promise<void> }> {
  if (declaration.transport === 'stdio') {
    const declaredEnv = await resolveDeclared(declaration.env, options);
    const env = buildMcpServerEnv(declaredEnv);
    const sandbox = options.sandboxFor(declaration);
    const transport = new StdioProcessTransport({
      command: declaration.command,
      args: declaration.args ?? [],
      env,
      killGraceMs: options.killGraceMs,
      ...(declaration.cwd === undefined ? {} : { cwd: declaration.cwd }),
      // Sandboxed, the server sees the workspace, not the machine (its own allowance aside).
      ...(sandbox.mode === 'off'
        ? {}
        : {
            prepareSandbox: async () => {
              // As unsandboxed: the host process's cwd, which must then be visible (a root or a declared path).
              const cwd = declaration.cwd ?? process.cwd();
              const file = await resolveExecutable({
                command: declaration.command,
                searchPath: env['PATH'] ?? '',
                cwd,
                root: cwd,
              });
              return sandbox.prepare({
                toolId: 'mcp',
                file,
                args: declaration.args ?? [],
                env,
                cwd,
                limits: [],
              });
            },
          }),
    });
    return { transport, release: async () => {} };
  }
  const headers = await resolveDeclared(declaration.headers, options);
  let endpoint: McpHttpEndpoint;
  try {
    endpoint = await createMcpHttpFetch(declaration);
  } catch (error) {
    if (error instanceof McpHttpRefusedError)
      throw new McpConnectError(error.reason, { cause: error });
    throw error;
  }
  // Loaded on demand: only hosts that declare an HTTP server pay for (and resolve) its SSE deps.
  const { StreamableHTTPClientTransport } =
    await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const transport = new StreamableHTTPClientTransport(endpoint.url, {
    fetch: endpoint.fetch,
    requestInit: { headers },
  });
  return { transport, release: () => endpoint.close().catch(() => undefined) };
}

async function resolveDeclared(
  declared: Parameters<typeof resolveDeclaredValues>[0],
  options: ResolvedMcpArmOptions,
): Promise<Record<string, string>> {
  try {
    return await resolveDeclaredValues(declared, options.resolveCredential);
  } catch (error) {
    throw new McpConnectError('credential_unresolved', { cause: error });
  }
}

function isSpawnError(error: unknown): boolean {
  // A command not on PATH, or a sandbox that cannot be built, fails before anything started.
  if (error instanceof ToolDispatchError) return true;
  return error instanceof Error && 'syscall' in error && String(error.syscall).startsWith('spawn');
}
