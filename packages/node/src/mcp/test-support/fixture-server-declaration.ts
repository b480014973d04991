import { fileURLToPath } from 'node:url';
import type { McpStdioServerDeclaration } from '../mcp-arm-options.js';

/** The path of the fixture MCP server script. */
export const FIXTURE_MCP_SERVER = fileURLToPath(
  new URL('./fixture-mcp-server.ts', import.meta.url),
);

/** A stdio declaration that runs the fixture server under tsx. */
export function fixtureServerDeclaration(
  overrides: Partial<McpStdioServerDeclaration> = {},
): McpStdioServerDeclaration {
  return {
    transport: 'stdio',
    command: process.execPath,
    args: ['--import', 'tsx', FIXTURE_MCP_SERVER],
    ...overrides,
  };
}
