import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpServer, type RunningMcpServer } from '../mcp-server.js';
import { createTestClient, createTestServerOptions } from './test-support/in-process-server.js';

describe('startMcpServer over Streamable HTTP', () => {
  let sandbox = '';
  let root = '';
  let running: RunningMcpServer;
  let closeHost: () => Promise<void>;
  beforeAll(async () => {
    sandbox = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-http-')));
    root = path.join(sandbox, 'app');
    await mkdir(root);
    await writeFile(path.join(root, 'hello.txt'), 'over http');
    const built = await createTestServerOptions({
      root,
      stateDir: path.join(sandbox, 'state'),
      grant: ['read_file', 'write_file'],
      mode: 'ask',
    });
    closeHost = built.close;
    running = await startMcpServer({ ...built.serverOptions, transport: { kind: 'http' } });
  });
  afterAll(async () => {
    await running.close();
    await closeHost();
    await rm(sandbox, { recursive: true, force: true });
  });

  it('listens on loopback only', () => {
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('lists and calls tools for an SDK client', async () => {
    const client = createTestClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url ?? '')));

    const { tools } = await client.listTools();
    const result = await client.callTool({ name: 'read_file', arguments: { path: 'hello.txt' } });

    expect(tools.map((tool) => tool.name)).toEqual(['read_file', 'write_file']);
    expect(JSON.stringify(result.content)).toContain('over http');
    await client.close();
  });

  it('asks through elicitation on the call stream and writes once approved', async () => {
    const client = createTestClient(() => ({
      action: 'accept',
      content: { decision: 'approve once' },
    }));
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url ?? '')));

    const result = await client.callTool({
      name: 'write_file',
      arguments: { path: 'via-http.txt', content: 'ok' },
    });

    expect(result.isError).toBeUndefined();
    expect(existsSync(path.join(root, 'via-http.txt'))).toBe(true);
    await client.close();
  });

  it.each([
    ['a foreign Host (DNS rebinding)', { host: 'attacker.example' }],
    ['a foreign Origin', { origin: 'https://attacker.example' }],
  ])('refuses %s before any MCP work', async (_case, headers) => {
    const status = await post(running.url ?? '', headers);

    expect(status).toBe(403);
  });

  it('refuses a request without a session that is not an initialize', async () => {
    const status = await post(running.url ?? '', {});

    expect(status).toBe(400);
  });
});

function post(url: string, headers: Record<string, string>): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          host: target.host,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
  });
}
