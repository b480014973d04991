import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  BUILTIN_TOOLS,
  createToolRegistry,
  unwrapUntrusted,
  type ToolDispatchContext,
} from '@toolhost/core';
import { toModelText } from '@toolhost/core/bound';

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
// createToolServer, against registry.dispatch of the same call: the cost of the MCP layer. The
// floor is the SDK's own: its McpServer with a handler that only dispatches and renders the text,
// so the last rows are what createToolServer adds (admission, the approval regime, media).
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

  const floorServer = new McpServer({ name: 'floor', version: '1.0.0' });
  floorServer.registerTool(
    'read_file',
    { description: 'read_file through registry.dispatch', inputSchema: { path: z.string() } },
    async (args) => {
      const outcome = await registry.dispatch({ id: 'b', name: 'read_file', args }, context());
      // The text the model is shown, rendered as toolhost's server renders it.
      const text = toModelText(unwrapUntrusted(outcome.toolResult).result);
      return { content: [{ type: 'text', text }] };
    },
  );
  const [floorClientSide, floorServerSide] = InMemoryTransport.createLinkedPair();
  const floorClient = new Client({ name: 'bench-floor', version: '1.0.0' });
  await floorServer.connect(floorServerSide);
  await floorClient.connect(floorClientSide);

  const call = { name: 'read_file', arguments: { path: 'one-k.txt' } };
  const overMcp = () => client.callTool(call);
  const direct = () =>
    registry.dispatch({ id: 'b', name: 'read_file', args: { path: 'one-k.txt' } }, context());
  const samples = await sampleInterleaved(
    {
      subject: { run: async () => void (await overMcp()) },
      baseline: { run: async () => void (await direct()) },
      floor: { run: async () => void (await floorClient.callTool(call)) },
    },
    { iterations: 2000, warmup: 200 },
  );

  await client.close();
  await floorClient.close();
  await handle.close();
  await rm(base, { recursive: true, force: true });
  return [
    ...interleavedRows({
      label: 'mcp serve tools/call read_file 1 KiB',
      subject: 'SDK Client → toolhost MCP server',
      baseline: 'registry.dispatch',
      subjectSample: samples.subject,
      baselineSample: samples.baseline,
      target: '≤1.5x',
    }),
    ...interleavedRows({
      label: 'mcp serve tools/call read_file 1 KiB (SDK floor)',
      subject: 'SDK Client → bare SDK McpServer that dispatches',
      baseline: 'registry.dispatch',
      subjectSample: samples.floor,
      baselineSample: samples.baseline,
    }),
    ...interleavedRows({
      label: 'mcp serve tools/call read_file 1 KiB (server layer)',
      subject: 'SDK Client → toolhost MCP server',
      baseline: 'SDK Client → bare SDK McpServer that dispatches',
      subjectSample: samples.subject,
      baselineSample: samples.floor,
    }),
  ];
}
