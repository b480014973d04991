import type * as CreateMcpArmModule from './create-mcp-arm.js';
import type { McpArm } from './create-mcp-arm.js';
import type { McpArmOptions } from './mcp-arm-options.js';

/** MCP servers are configured but the optional peer `@modelcontextprotocol/sdk` is absent. */
export class McpSdkMissingError extends Error {
  readonly code = 'mcp_sdk_missing';
  override readonly name = 'McpSdkMissingError';

  constructor(options: { readonly cause?: unknown } = {}) {
    super(
      'toolhost: MCP servers are configured, but the optional peer dependency @modelcontextprotocol/sdk is not installed; install it beside @toolhost/node (npm install @modelcontextprotocol/sdk)',
      options,
    );
  }
}

type ArmModule = typeof CreateMcpArmModule;

/**
 * `createMcpArm`, loading the MCP SDK only when servers are declared: importing it costs more
 * than everything else a CLI call does, most hosts declare none, and a host without MCP need
 * not install it at all (an optional peer). `load` is the seam the tests replace.
 */
export async function createMcpArmLazily(
  options: McpArmOptions,
  load: () => Promise<ArmModule> = () => import('./create-mcp-arm.js'),
): Promise<McpArm> {
  let armModule: ArmModule;
  try {
    armModule = await load();
  } catch (error) {
    throw isSdkMissing(error) ? new McpSdkMissingError({ cause: error }) : error;
  }
  return armModule.createMcpArm(options);
}

function isSdkMissing(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' &&
    error.message.includes("'@modelcontextprotocol/sdk")
  );
}
