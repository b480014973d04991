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

  it('answers 401 saying how to pass the token, never echoing the one presented', async () => {
    child = spawn(process.execPath, binArgv(['serve', '--http', ...ws.stateFlags]), {
      cwd: ws.root,
      env: cliEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const bare = new URL(await endpointOf(child));
    bare.search = '';
    const wrong = 'wrong-token-planted-by-the-test-0123456789abcd';
    const post = (headers: Record<string, string>) =>
      fetch(bare, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });

    const missing = await post({});
    const missingBody = await missing.text();
    const presented = await post({ authorization: `Bearer ${wrong}` });
    const presentedBody = await presented.text();
    const challenge = presented.headers.get('www-authenticate') ?? '';
    child.kill('SIGINT');
    await once(child, 'exit');

    expect(missing.status).toBe(401);
    expect(missingBody).toContain('Authorization: Bearer <token>');
    expect(missingBody).toContain('--token-file');
    expect(missing.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="toolhost serve", error_description=".*Authorization: Bearer <token>"$/,
    );
    expect(presented.status).toBe(401);
    expect(challenge).toContain('error="invalid_token"');
    expect(challenge).toContain('Authorization: Bearer <token>');
    expect(presentedBody).not.toContain(wrong);
    expect(challenge).not.toContain(wrong);
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
