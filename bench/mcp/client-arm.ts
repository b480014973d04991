import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { createMcpArm } from '../../packages/node/src/mcp/create-mcp-arm.js';
import { FIXTURE_MCP_SERVER } from '../../packages/node/src/mcp/test-support/fixture-server-declaration.js';
import type { BenchRow } from '../bench-row.js';
import { interleavedRows, sampleInterleaved } from '../sample-interleaved.js';

/**
 * One echo call to the fixture stdio server through the client arm (argument validation, error
 * mapping, its own transport) against the SDK's `Client.callTool` on the SDK's
 * `StdioClientTransport` to a second copy of the same server, sampled interleaved (min and
 * median rows).
 */
export async function runClientArmRows(): Promise<BenchRow[]> {
  const arm = await createMcpArm({
    servers: {
      fx: {
        transport: 'stdio',
        command: process.execPath,
        args: ['--import', 'tsx', FIXTURE_MCP_SERVER],
      },
    },
  });
  const bare = new Client({ name: 'bench', version: '1.0.0' });
  try {
    await bare.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', FIXTURE_MCP_SERVER],
        stderr: 'ignore',
      }),
    );
    const samples = await sampleInterleaved(
      {
        arm: {
          run: async () => {
            await arm.capability.call({ server: 'fx', tool: 'echo', args: { text: 'x' } });
          },
        },
        sdk: {
          run: async () => {
            await bare.callTool({ name: 'echo', arguments: { text: 'x' } });
          },
        },
      },
      { iterations: 1000, warmup: 100 },
    );
    return interleavedRows({
      label: 'mcp client arm call (stdio)',
      subject: 'host.mcp.call',
      baseline: 'SDK Client.callTool',
      subjectSample: samples.arm,
      baselineSample: samples.sdk,
      target: '≤1.1x',
    });
  } finally {
    await bare.close();
    await arm.close();
  }
}
