import type { McpArmReport } from '@toolhost/node/host';

/**
 * One line per MCP tool id two discovered tools would share (`docs` + `search_query` and
 * `docs_search` + `query` are both `mcp_docs_search_query`): neither is served, and a grant of
 * the id reaches nothing. Said at start, by `doctor` and by `toolhost tools`.
 */
export function describeMcpCollisions(report: McpArmReport | undefined): string[] {
  const byId = new Map<string, string[]>();
  for (const entry of report?.skipped ?? []) {
    if (entry.reason !== 'collision') continue;
    byId.set(entry.id, [...(byId.get(entry.id) ?? []), `${entry.server}/${entry.tool}`]);
  }
  return [...byId].map(
    ([id, tools]) =>
      `${id} is ambiguous (${tools.join(', ')}${isBuiltin(tools) ? ', a built-in' : ''}): none of them is served; rename a server to tell them apart`,
  );
}

// A single candidate collided with a reserved (built-in) id.
function isBuiltin(tools: readonly string[]): boolean {
  return tools.length === 1;
}
