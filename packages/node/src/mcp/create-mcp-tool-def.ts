import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { ToolUnavailableError, type ToolDef, type ToolId } from '@toolhost/core';
import { refusedBeforeEffect } from '@toolhost/core/host';
import type { JsonSchema } from '@toolhost/core/lowering';
import type { McpArgsValidator } from './compile-input-schema.js';

/** The longest server-written description a discovered tool carries to the model. */
export const MAX_MCP_DESCRIPTION_CHARS = 1_024;

/** What one discovered tool needs to become a `ToolDef`. */
export interface McpToolDefInput {
  readonly id: ToolId;
  readonly server: string;
  readonly tool: Tool;
  readonly validate: McpArgsValidator;
}

/** A discovered MCP tool as a `ToolDef`: governed as `egress: 'mcp'`, dispatched via `host.mcp`. */
export function createMcpToolDef(
  input: McpToolDefInput,
): ToolDef<Record<string, unknown>, unknown> {
  const { id, server, tool, validate } = input;
  const def: ToolDef<Record<string, unknown>, unknown> = {
    id,
    source: 'mcp',
    description: describe(server, tool),
    llmVisibleParams: toLlmVisibleParams(tool.inputSchema),
    policy: Object.freeze({
      egress: 'mcp',
      fsScoped: false,
      spawnsProcess: false,
      requiresGateApproval: false,
    }),
    parseArgs: (raw) => validate(raw),
    // Names only, for the approver (as `mcp_call` shows them): the arguments may carry anything.
    policyTarget: () => ({ server, tool: tool.name }),
    async dispatch(args, host, ctx) {
      // Through the seam, never a captured client: the registry's host decides what is wired.
      if (host.mcp === undefined) throw refusedBeforeEffect(new ToolUnavailableError(id, 'mcp'));
      return host.mcp.call({ server, tool: tool.name, args }, ctx.signal, ctx.hostCallOptions);
    },
  };
  return Object.freeze(def);
}

function describe(server: string, tool: Tool): string {
  // Server-written text reaches the model as a tool definition: bound it and say whose it is.
  const text = (tool.description ?? tool.title ?? tool.name).trim();
  const bounded =
    text.length <= MAX_MCP_DESCRIPTION_CHARS
      ? text
      : `${text.slice(0, MAX_MCP_DESCRIPTION_CHARS)}…`;
  return `[MCP server ${server}] ${bounded}`;
}

function toLlmVisibleParams(inputSchema: Tool['inputSchema']): JsonSchema {
  const { $schema: _dialect, ...rest } = structuredClone(inputSchema) as Record<string, unknown>;
  return deepFreeze(rest);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
