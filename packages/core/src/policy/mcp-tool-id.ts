/** The longest tool id a provider accepts. */
export const MAX_TOOL_ID_LENGTH = 128;

/** `mcp_{server}_{tool}` with every character outside `[A-Za-z0-9_-]` replaced, cut to 128. */
export function toMcpToolId(server: string, tool: string): string {
  // Providers reject other characters, and a dot or slash would let a name pose as a path.
  return `mcp_${server}_${tool}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, MAX_TOOL_ID_LENGTH);
}
