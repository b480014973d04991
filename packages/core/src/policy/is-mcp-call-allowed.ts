import type { ToolPolicy } from '../dispatch-context.js';
import { toMcpToolId } from './mcp-tool-id.js';

/**
 * Whether a call may reach `tool` on MCP server `server`: its discovered tool
 * `mcp_{server}_{tool}` is itself granted, or `allowedMcpTools` names it (`server/tool`, or
 * `server/*` for every tool of that server). Without either, `mcp_call` reaches nothing: a grant
 * of the generic dispatcher must never widen a narrower grant of one discovered tool.
 */
export function isMcpCallAllowed(
  server: string,
  tool: string,
  granted: ReadonlySet<string>,
  policy: ToolPolicy,
): boolean {
  if (granted.has(toMcpToolId(server, tool))) return true;
  // Exact names: the ids' character replacement must not let `a.b` stand for `a_b` here.
  return (policy.allowedMcpTools ?? []).some((entry) => {
    const slash = entry.indexOf('/');
    if (slash <= 0) return false;
    const named = entry.slice(slash + 1);
    return entry.slice(0, slash) === server && (named === '*' || named === tool);
  });
}
