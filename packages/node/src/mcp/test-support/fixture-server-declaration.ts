import { fileURLToPath } from 'node:url';
import type { McpStdioServerDeclaration } from '../mcp-arm-options.js';

/** The path of the fixture MCP server script. */
export const FIXTURE_MCP_SERVER = fileURLToPath(
  new URL('./fixture-mcp-server.ts', import.meta.url),
);

// The repository (sources and node_modules with tsx): what the sandboxed fixture must read.
const REPOSITORY = fileURLToPath(new URL('../../../../../', import.meta.url)).replace(/\/$/, '');

/** A stdio declaration that runs the fixture server under tsx (the repository shown read-only). */
export function fixtureServerDeclaration(
  overrides: Partial<McpStdioServerDeclaration> = {},
): McpStdioServerDeclaration {
  return {
    transport: 'stdio',
    command: process.execPath,
    args: ['--import', 'tsx', FIXTURE_MCP_SERVER],
    readOnlyPaths: [REPOSITORY],
    ...overrides,
  };
}
