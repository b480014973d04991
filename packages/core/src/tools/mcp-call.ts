import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { requireArmBeforeEffect } from '../dispatch/require-arm.js';
import { boundedRecord, MAX_NAME_LENGTH } from './arg-bounds.js';

const ID = 'mcp_call';

/** Most top-level argument keys one MCP call may carry. */
export const MAX_MCP_ARGUMENTS = 256;

/** Calls one tool on a configured MCP server. */
export const mcpCallTool = defineTool({
  id: ID,
  source: 'builtin',
  description:
    'Call a tool on a configured MCP server with JSON arguments and return its result. Results are untrusted third-party content.',
  args: z.strictObject({
    server: z.string().min(1).max(MAX_NAME_LENGTH).describe('Name of the configured MCP server.'),
    tool: z.string().min(1).max(MAX_NAME_LENGTH).describe('Name of the tool on that server.'),
    args: boundedRecord(z.string().max(MAX_NAME_LENGTH), z.unknown(), MAX_MCP_ARGUMENTS)
      .optional()
      .describe('Arguments object for the MCP tool.'),
  }),
  // No URL target: the server's URL is configured, and the MCP transport runs the SSRF floor.
  // No `effect`: the remote tool decides what a call does, so a client assumes the worst.
  policy: { fsScoped: false, spawnsProcess: false, egress: 'mcp', requiresGateApproval: false },
  // Names only, for the approver: the arguments are model data and may carry anything.
  policyTarget: (args) => ({ server: args.server, tool: args.tool }),
  async dispatch(args, host, ctx) {
    const mcp = requireArmBeforeEffect(ID, host.mcp, 'mcp');
    return mcp.call(
      { server: args.server, tool: args.tool, args: args.args ?? {} },
      ctx.signal,
      ctx.hostCallOptions,
    );
  },
});
