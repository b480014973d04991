import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  ToolDispatchError,
  ToolExecutionError,
  type AnyToolDef,
  type ToolId,
} from '@toolhost/core';
import { refusedBeforeEffect, type McpCallInput, type McpCapability } from '@toolhost/core/host';
import { callMcpTool, type McpToolCall } from './call-mcp-tool.js';
import { compileInputSchema, type McpArgsValidator } from './compile-input-schema.js';
import { connectMcpServer, McpConnectError, type McpConnection } from './connect-mcp-server.js';
import { createMcpToolDef } from './create-mcp-tool-def.js';
import { discoverMcpTools } from './discover-mcp-tools.js';
import {
  resolveMcpArmOptions,
  type McpArmOptions,
  type McpServerDeclaration,
} from './mcp-arm-options.js';
import { toMcpToolId } from '@toolhost/core/policy';
import { resolveCredentialRef } from './resolve-declared-values.js';

/** Why a discovered tool was not registered. */
export type McpSkipReason = 'collision' | 'invalid_schema' | 'not_allowlisted';

/** What discovery did, for the operator (never shown to a model). */
export interface McpArmReport {
  readonly servers: readonly {
    readonly name: string;
    readonly status: 'connected' | 'failed';
    /** A fixed code when `failed`. */
    readonly reason?: string;
    readonly toolCount: number;
  }[];
  readonly skipped: readonly {
    readonly server: string;
    /** The server's tool name, made printable and bounded. */
    readonly tool: string;
    /** The id it would have had (`collision`: the id it shares with another tool). */
    readonly id: string;
    readonly reason: McpSkipReason;
  }[];
}

/** The MCP client arm: `capability` goes on the host, `tools` into the registry. */
export interface McpArm {
  readonly capability: McpCapability;
  /** One `ToolDef` per discovered tool, in declaration and listing order. */
  readonly tools: readonly AnyToolDef[];
  readonly report: McpArmReport;
  /** Shuts every server down and reaps the stdio processes. */
  close(): Promise<void>;
}

interface DiscoveredTool {
  readonly id: ToolId;
  readonly validate: McpArgsValidator;
}

interface LiveServer {
  readonly connection: McpConnection;
  readonly timeoutMs: number;
  /** Keyed by the server's own name; a Map, so `__proto__` or `constructor` resolve to nothing. */
  readonly tools: ReadonlyMap<string, DiscoveredTool>;
}

/** Connects every declared server, discovers its tools and returns the arm. */
export async function createMcpArm(options: McpArmOptions): Promise<McpArm> {
  const resolved = resolveMcpArmOptions(options, resolveCredentialRef);
  const attempts = await Promise.all(
    [...resolved.servers].map(async ([name, declaration]) => ({
      name,
      declaration,
      outcome: await connectAndList(name, declaration, resolved.connectTimeoutMs, resolved),
    })),
  );
  const live = new Map<string, LiveServer>();
  const tools: AnyToolDef[] = [];
  const servers: McpArmReport['servers'][number][] = [];
  const skipped: McpArmReport['skipped'][number][] = [];
  const candidates = candidatesOf(attempts, skipped);
  const ambiguous = ambiguousIds(candidates, resolved.reservedIds);
  // Ids are claimed in declaration order, so the registry's order never depends on timing.
  for (const { name, declaration, outcome } of attempts) {
    if ('failure' in outcome) {
      servers.push({ name, status: 'failed', reason: outcome.failure, toolCount: 0 });
      continue;
    }
    const serverTools = new Map<string, DiscoveredTool>();
    for (const { tool, id } of candidates.get(name) ?? []) {
      const skip = (reason: McpSkipReason) =>
        skipped.push({ server: name, tool: printable(tool.name), id, reason });
      // An id two tools would share reaches neither: a grant for it names no one tool, and
      // arguments meant for one must never reach the other.
      if (ambiguous.has(id)) {
        skip('collision');
        continue;
      }
      const validate = tryCompile(id, tool);
      if (validate === undefined) {
        skip('invalid_schema');
        continue;
      }
      serverTools.set(tool.name, { id, validate });
      tools.push(createMcpToolDef({ id, server: name, tool, validate }) as AnyToolDef);
    }
    servers.push({ name, status: 'connected', toolCount: serverTools.size });
    live.set(name, {
      connection: outcome.connection,
      timeoutMs: declaration.callTimeoutMs ?? resolved.callTimeoutMs,
      tools: serverTools,
    });
  }
  const capability: McpCapability = {
    call: async (input, signal, hostCallOptions) => {
      let call: McpToolCall;
      try {
        const { server, tool, id, validate } = resolveCall(live, input);
        call = {
          toolId: id,
          client: server.connection.client,
          tool,
          // mcp_call reaches here without a discovered ToolDef's parseArgs: validate every time.
          args: validate(input.args),
          timeoutMs: server.timeoutMs,
          isClosed: server.connection.isClosed,
          exit: server.connection.exit,
          signal,
          hostCallOptions,
        };
      } catch (error) {
        // An unknown server or tool, or arguments its schema refuses: nothing was sent.
        throw error instanceof ToolDispatchError ? refusedBeforeEffect(error) : error;
      }
      return callMcpTool(call);
    },
  };
  let closing: Promise<void> | undefined;
  return {
    capability,
    tools: Object.freeze(tools),
    report: { servers, skipped },
    close: () => {
      closing ??= Promise.all([...live.values()].map(({ connection }) => connection.close())).then(
        () => undefined,
      );
      return closing;
    },
  };
}

type ConnectOutcome =
  | { readonly connection: McpConnection; readonly tools: readonly Tool[] }
  | { readonly failure: string };

async function connectAndList(
  name: string,
  declaration: McpServerDeclaration,
  timeoutMs: number,
  resolved: ReturnType<typeof resolveMcpArmOptions>,
): Promise<ConnectOutcome> {
  let connection: McpConnection;
  try {
    connection = await connectMcpServer(name, declaration, resolved);
  } catch (error) {
    return { failure: error instanceof McpConnectError ? error.reason : 'connect_failed' };
  }
  try {
    return { connection, tools: await discoverMcpTools(connection.client, { timeoutMs }) };
  } catch {
    await connection.close();
    return { failure: 'list_failed' };
  }
}

interface Candidate {
  readonly tool: Tool;
  readonly id: ToolId;
}

// The allowlisted tools of every connected server with their ids, in listing order.
function candidatesOf(
  attempts: readonly {
    readonly name: string;
    readonly declaration: McpServerDeclaration;
    readonly outcome: ConnectOutcome;
  }[],
  skipped: McpArmReport['skipped'][number][],
): ReadonlyMap<string, readonly Candidate[]> {
  const candidates = new Map<string, Candidate[]>();
  for (const { name, declaration, outcome } of attempts) {
    if ('failure' in outcome) continue;
    const list: Candidate[] = [];
    for (const tool of outcome.tools) {
      const id = toMcpToolId(name, tool.name);
      if (declaration.tools !== undefined && !declaration.tools.includes(tool.name)) {
        skipped.push({ server: name, tool: printable(tool.name), id, reason: 'not_allowlisted' });
        continue;
      }
      list.push({ tool, id });
    }
    candidates.set(name, list);
  }
  return candidates;
}

// Every id more than one candidate maps to (`docs` + `search_query` and `docs_search` + `query`;
// two names that differ only where the id replaces characters), or a built-in's.
function ambiguousIds(
  candidates: ReadonlyMap<string, readonly Candidate[]>,
  reserved: Iterable<string>,
): ReadonlySet<ToolId> {
  const seen = new Set<ToolId>(reserved);
  const ambiguous = new Set<ToolId>();
  for (const list of candidates.values()) {
    for (const { id } of list) {
      if (seen.has(id)) ambiguous.add(id);
      seen.add(id);
    }
  }
  return ambiguous;
}

function resolveCall(
  live: ReadonlyMap<string, LiveServer>,
  input: McpCallInput,
): { server: LiveServer; tool: string; id: ToolId; validate: McpArgsValidator } {
  const server = live.get(input.server);
  if (server === undefined) {
    throw new ToolExecutionError('mcp_call', 'unknown_server', {
      correctable: true,
      detail: `configured MCP servers: ${[...live.keys()].sort().join(', ') || '(none)'}`,
    });
  }
  const discovered = server.tools.get(input.tool);
  if (discovered === undefined) {
    throw new ToolExecutionError('mcp_call', 'unknown_tool', {
      correctable: true,
      detail: `tools of this server: ${[...server.tools.keys()].map(printable).sort().join(', ') || '(none)'}`,
    });
  }
  return { server, tool: input.tool, id: discovered.id, validate: discovered.validate };
}

function tryCompile(id: ToolId, tool: Tool): McpArgsValidator | undefined {
  try {
    return compileInputSchema(id, tool.inputSchema);
  } catch {
    return undefined;
  }
}

function printable(name: string): string {
  const cleaned = name.replace(/[^\x20-\x7e]/g, '?');
  return cleaned.length <= 128 ? cleaned : `${cleaned.slice(0, 128)}…`;
}
