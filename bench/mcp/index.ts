import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { BUILTIN_TOOLS, createToolRegistry, type ToolDispatchContext } from '@toolhost/core';

import { createToolServer } from '../../packages/cli/src/mcp/create-tool-server.js';
import { createNodeToolHost } from '../../packages/node/src/create-node-tool-host.js';
import type { BenchRow } from '../bench-row.js';
import { interleavedRows, sampleInterleaved } from '../sample-interleaved.js';
import { runClientArmRows } from './client-arm.js';
import { stdioReadFileRows } from './stdio-read-file.js';

/**
 * Both MCP directions: toolhost as a server vs its registry and vs the reference filesystem
 * server over stdio, and the client arm vs a bare SDK client.
 */
export async function run(): Promise<BenchRow[]> {
  return [...(await serverRows()), ...(await stdioReadFileRows()), ...(await runClientArmRows())];
}

// tools/call read_file (1 KiB) through the SDK Client, the in-memory transport and
// createToolServer, against registry.dispatch of the same call: the cost of the MCP layer.
async function serverRows(): Promise<BenchRow[]> {
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
  const samples = await sampleInterleaved(
    {
      subject: { run: async () => void (await overMcp()) },
      baseline: { run: async () => void (await direct()) },
    },
    { iterations: 2000, warmup: 200 },
  );

  await client.close();
  await handle.close();
  await rm(base, { recursive: true, force: true });
  return interleavedRows({
    label: 'mcp serve tools/call read_file 1 KiB',
    subject: 'SDK Client → toolhost MCP server',
    baseline: 'registry.dispatch',
    subjectSample: samples.subject,
    baselineSample: samples.baseline,
    target: '≤1.5x',
  });
}
