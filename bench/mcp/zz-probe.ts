import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StdioProcessTransport } from '../../packages/node/src/mcp/stdio-process-transport.js';
import { buildMcpServerEnv } from '../../packages/node/src/mcp/resolve-declared-values.js';
import { FIXTURE_MCP_SERVER } from '../../packages/node/src/mcp/test-support/fixture-server-declaration.js';
import { measureUs } from '../bench-row.js';
const own = new Client({ name: 'b', version: '1' });
await own.connect(
  new StdioProcessTransport({
    command: process.execPath,
    args: ['--import', 'tsx', FIXTURE_MCP_SERVER],
    env: buildMcpServerEnv({}),
    killGraceMs: 2000,
  }),
);
const sdk = new Client({ name: 'b', version: '1' });
await sdk.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', FIXTURE_MCP_SERVER],
    stderr: 'ignore',
  }),
);
const sdkMin = new Client({ name: 'b', version: '1' });
await sdkMin.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', FIXTURE_MCP_SERVER],
    stderr: 'ignore',
    env: buildMcpServerEnv({}),
  }),
);
for (let i = 0; i < 4; i++) {
  const r = [];
  for (const [n, c] of [
    ['own', own],
    ['sdk', sdk],
    ['sdkMinEnv', sdkMin],
  ] as const)
    r.push(
      n,
      (
        await measureUs(() => c.callTool({ name: 'echo', arguments: { text: 'x' } }), {
          iterations: 500,
        })
      ).toFixed(1),
    );
  console.log(...r);
}
await own.close();
await sdk.close();
await sdkMin.close();
