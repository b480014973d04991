import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { BUILTIN_TOOLS, createToolRegistry, type ToolDispatchContext } from '@toolhost/core';

import { createToolServer } from '../../packages/cli/src/mcp/create-tool-server.js';
import { createNodeToolHost } from '../../packages/node/src/create-node-tool-host.js';
import { createMcpArm } from '../../packages/node/src/mcp/create-mcp-arm.js';
import { FIXTURE_MCP_SERVER } from '../../packages/node/src/mcp/test-support/fixture-server-declaration.js';
import { measureUs, type BenchRow } from '../bench-row.js';
import { stdioReadFileRows } from './stdio-read-file.js';

/**
 * Both MCP directions: toolhost as a server vs its registry and vs the reference filesystem
 * server over stdio, and the client arm vs a bare SDK client.
 */
export async function run(): Promise<BenchRow[]> {
  return [await serverRow(), ...(await stdioReadFileRows()), await clientRow()];
}

// tools/call read_file (1 KiB) through the SDK Client, the in-memory transport and
// createToolServer, against registry.dispatch of the same call: the cost of the MCP layer.
async function serverRow(): Promise<BenchRow> {
  const base = await mkdtemp(path.join(tmpdir(), 'toolhost-bench-mcp-'));
  const root = path.join(base, 'app');
  await mkdir(root);
  await writeFile(path.join(root, 'one-k.txt'), 'a'.repeat(1024));
  const handle = await createNodeToolHost({ root, stateDir: path.join(base, 'state') });
  const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host: handle.host });
  const granted = new Set(['read_file']);
  const context = (): ToolDispatchContext => ({
    nodeId: 'bench',
    grantedToolIds: granted,
    config: {},
    toolPolicy: {},
    fsScope: 'sandboxed',
    gateApproved: false,
  });
  const server = createToolServer({
    registry,
    tools: BUILTIN_TOOLS.filter((tool) => granted.has(tool.id)),
    createContext: context,
    mode: 'ask',
    paths: { root },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await server.connect(serverSide);
  await client.connect(clientSide);

  const overMcp = () => client.callTool({ name: 'read_file', arguments: { path: 'one-k.txt' } });
  const direct = () =>
    registry.dispatch({ id: 'b', name: 'read_file', args: { path: 'one-k.txt' } }, context());
  const best = await interleave(overMcp, direct, 400);

  await client.close();
  await handle.close();
  await rm(base, { recursive: true, force: true });
  return row(
    'mcp serve tools/call read_file 1 KiB',
    'SDK Client → toolhost MCP server',
    'registry.dispatch',
    best,
    '≤1.5x',
  );
}

// One echo call to the fixture stdio server through the client arm (arg validation, error
// mapping, own transport) against the SDK's Client on the SDK's StdioClientTransport.
async function clientRow(): Promise<BenchRow> {
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
  await bare.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', FIXTURE_MCP_SERVER],
      stderr: 'ignore',
    }),
  );
  const viaArm = () => arm.capability.call({ server: 'fx', tool: 'echo', args: { text: 'x' } });
  const viaSdk = () => bare.callTool({ name: 'echo', arguments: { text: 'x' } });
  const best = await interleave(viaArm, viaSdk, 400);
  await bare.close();
  await arm.close();
  return row('mcp client arm call (stdio)', 'host.mcp.call', 'SDK Client.callTool', best, '≤1.2x');
}

// Interleaved passes, each side's best median, so drift on a shared machine hits both.
async function interleave(
  subject: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
  iterations: number,
): Promise<{ subject: number; baseline: number }> {
  const best = { subject: Infinity, baseline: Infinity };
  for (let pass = 0; pass < 3; pass += 1) {
    best.baseline = Math.min(best.baseline, await measureUs(baseline, { iterations }));
    best.subject = Math.min(best.subject, await measureUs(subject, { iterations }));
  }
  return best;
}

function row(
  name: string,
  subject: string,
  baseline: string,
  best: { subject: number; baseline: number },
  target: string,
): BenchRow {
  return {
    name,
    subject,
    baseline,
    subjectUs: best.subject,
    baselineUs: best.baseline,
    ratio: best.subject / best.baseline,
    target,
  };
}
