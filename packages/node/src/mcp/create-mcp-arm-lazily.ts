import type { McpArm } from './create-mcp-arm.js';
import type { McpArmOptions } from './mcp-arm-options.js';

/**
 * `createMcpArm`, loading the MCP SDK only when servers are declared: importing it costs more
 * than everything else a CLI call does, and most hosts declare none.
 */
export async function createMcpArmLazily(options: McpArmOptions): Promise<McpArm> {
  const { createMcpArm } = await import('./create-mcp-arm.js');
  return createMcpArm(options);
}
