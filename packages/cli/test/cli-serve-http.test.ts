import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { binArgv, cliEnv, runCli } from './run-cli.js';
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
    expect(new URL(url).searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(listed.tools.map((tool) => tool.name)).toContain('read_file');
    expect(JSON.stringify(read.content)).toContain('hello from notes');
    expect(code).toBe(0);
  });

  it.each([
    ['--max-calls-per-session', '0'],
    ['--max-calls-in-flight', '2.5'],
    ['--max-waiting-calls', '-1'],
  ])('refuses %s %s as a usage error before serving', async (flag, value) => {
    const result = await runCli(['serve', '--http', flag, value, ...ws.stateFlags], {
      cwd: ws.root,
    });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${flag} takes a whole number of at least 1`);
    expect(result.stderr).not.toContain('Streamable HTTP at');
  });

  it('refuses a client without the token and serves one reading --token-file', async () => {
    const tokenFile = path.join(ws.stateDir, '..', 'serve-token');
    child = spawn(
      process.execPath,
      binArgv(['serve', '--http', '--token-file', tokenFile, ...ws.stateFlags]),
      { cwd: ws.root, env: cliEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const bare = new URL(await endpointOf(child));
    bare.search = '';
    const mode = (await stat(tokenFile)).mode & 0o777;
    const token = (await readFile(tokenFile, 'utf8')).trim();
    const stranger = new Client({ name: 'cli-http-stranger', version: '0' });
    const refused = stranger.connect(new StreamableHTTPClientTransport(bare));
    await expect(refused).rejects.toMatchObject({ code: 401 });
    const client = new Client({ name: 'cli-http-test', version: '0' });
    await client.connect(
      new StreamableHTTPClientTransport(bare, {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );

    const listed = await client.listTools();
    await client.close();
    child.kill('SIGINT');
    const [code] = (await once(child, 'exit')) as [number | null];

    expect(mode).toBe(0o600);
    expect(listed.tools.map((tool) => tool.name)).toContain('read_file');
    expect(code).toBe(0);
    expect(existsSync(tokenFile)).toBe(false);
  });

  it('refuses --token-file without --http', async () => {
    child = spawn(
      process.execPath,
      binArgv(['serve', '--token-file', path.join(ws.root, 'token'), ...ws.stateFlags]),
      { cwd: ws.root, env: cliEnv(), stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));

    const [code] = (await once(child, 'exit')) as [number | null];

    expect(code).toBe(2);
    expect(stderr).toContain('--token-file needs --http');
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
