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
 * median rows, and this process's CPU a call).
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
      // The first ~1000 calls run the SDK's and the arm's code cold (a 2x spread between runs
      // at a 100-call warmup): the rows measure the steady state.
      { iterations: 3000, warmup: 1000 },
    );
    const rows = interleavedRows({
      label: 'mcp client arm call (stdio)',
      subject: 'host.mcp.call (server in the sandbox)',
      baseline: 'SDK Client.callTool',
      subjectSample: samples.arm,
      baselineSample: samples.sdk,
      target: '≤1.1x',
    });
    // This process's CPU a call: what the arm itself adds, without the two servers' scheduling.
    return [
      ...rows,
      {
        name: 'mcp client arm call (stdio) (client CPU median)',
        subject: 'host.mcp.call (server in the sandbox)',
        baseline: 'SDK Client.callTool',
        subjectUs: samples.arm.cpuMedianUs,
        baselineUs: samples.sdk.cpuMedianUs,
        ratio: samples.arm.cpuMedianUs / samples.sdk.cpuMedianUs,
      },
    ];
  } finally {
    await bare.close();
    await arm.close();
  }
}
