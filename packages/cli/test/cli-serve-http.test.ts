import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { binArgv, cliEnv } from './run-cli.js';
import { createWorkspace, type Workspace } from './workspace.js';

describe('toolhost serve --http', () => {
  let ws: Workspace;
  let child: ChildProcess | undefined;
  beforeEach(async () => {
    ws = await createWorkspace();
  });
  afterEach(async () => {
    if (child !== undefined && child.exitCode === null) child.kill('SIGKILL');
    await ws.cleanup();
  });

  it('serves Streamable HTTP on loopback, answers a client and stops cleanly on SIGINT', async () => {
    child = spawn(process.execPath, binArgv(['serve', '--http', ...ws.stateFlags]), {
      cwd: ws.root,
      env: cliEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const url = await endpointOf(child);
    const client = new Client({ name: 'cli-http-test', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));

    const listed = await client.listTools();
    const read = await client.callTool({ name: 'read_file', arguments: { path: 'notes.txt' } });
    await client.close();
    child.kill('SIGINT');
    const [code] = (await once(child, 'exit')) as [number | null];

    expect(new URL(url).hostname).toBe('127.0.0.1');
    expect(listed.tools.map((tool) => tool.name)).toContain('read_file');
    expect(JSON.stringify(read.content)).toContain('hello from notes');
    expect(code).toBe(0);
  });

  it('refuses a port that is not a number', async () => {
    child = spawn(process.execPath, binArgv(['serve', '--http', 'eighty', ...ws.stateFlags]), {
      cwd: ws.root,
      env: cliEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));

    const [code] = (await once(child, 'exit')) as [number | null];

    expect(code).toBe(2);
    expect(stderr).toContain('--http takes a port number');
  });
});

async function endpointOf(child: ChildProcess): Promise<string> {
  let stderr = '';
  for await (const chunk of child.stderr ?? []) {
    stderr += String(chunk);
    const match = /MCP over Streamable HTTP at (\S+)/.exec(stderr);
    if (match?.[1] !== undefined) return match[1];
  }
  throw new Error(`serve exited without an endpoint: ${stderr}`);
}
