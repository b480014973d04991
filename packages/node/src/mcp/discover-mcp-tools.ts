import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ListToolsResultSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';

/** Guards against a server whose cursors never end. */
export const MAX_TOOL_LIST_PAGES = 100;

/** Lists every tool a server offers, following `nextCursor` page by page. */
export async function discoverMcpTools(
  client: Client,
  options: { readonly timeoutMs: number },
): Promise<Tool[]> {
  if (client.getServerCapabilities()?.tools === undefined) return [];
  const tools: Tool[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_LIST_PAGES; page += 1) {
    // `client.request`, not `client.listTools`: listTools compiles every output schema and one
    // bad schema would throw away the whole server; we judge schemas per tool instead.
    const result = await client.request(
      { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
      ListToolsResultSchema,
      { timeout: options.timeoutMs },
    );
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined || seenCursors.has(cursor)) return tools;
    seenCursors.add(cursor);
  }
  return tools;
}
