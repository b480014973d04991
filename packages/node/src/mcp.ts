// `@toolhost/node/mcp`: the MCP client arm on its own (its options are at the root).
export { createMcpArmLazily as createMcpArm } from './mcp/create-mcp-arm-lazily.js';
export type { McpArm } from './mcp/create-mcp-arm.js';
