import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMcpServer, type RunningMcpServer } from '../mcp-server.js';
import {
  MAX_HTTP_REQUEST_BYTES,
  MAX_HTTP_SESSIONS,
  serveHttp,
  type HttpSession,
  type ServedHttp,
} from './serve-http.js';
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

  it('listens on loopback only, with a 256-bit base64url token in the URL', () => {
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp\?token=[A-Za-z0-9_-]{43}$/);
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

  it('carries a write the served schema allows: the body cap and the schemas agree', async () => {
    const client = createTestClient(() => ({
      action: 'accept',
      content: { decision: 'approve once' },
    }));
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url ?? '')));
    const { tools } = await client.listTools();
    const schema = tools.find((tool) => tool.name === 'write_file')?.inputSchema as unknown as {
      readonly properties: { readonly content: { readonly maxLength: number } };
    };
    const { maxLength } = schema.properties.content;
    // Every character the schema allows, escaped at worst (6 bytes), fits the 16 MiB body cap.
    expect(maxLength * 6).toBeLessThanOrEqual(MAX_HTTP_REQUEST_BYTES);

    // Under the schema's bound in characters, over the SDK's 4 MiB default body limit in bytes.
    const content = '€'.repeat(2 * 1024 * 1024);
    const result = await client.callTool({
      name: 'write_file',
      arguments: {
        path: 'big.txt',
        content: content.slice(0, Math.min(content.length, maxLength)),
      },
    });

    expect(result.isError ?? false).toBe(false);
    expect((await readFile(path.join(root, 'big.txt'), 'utf8')).length).toBe(
      Math.min(content.length, maxLength),
    );
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
  ])('refuses %s before any MCP work, even with the token', async (_case, headers) => {
    const { status } = await post(running.url ?? '', { headers });

    expect(status).toBe(403);
  });

  it('refuses a request without a session that is not an initialize', async () => {
    const { status } = await post(running.url ?? '', {});

    expect(status).toBe(400);
  });
});

describe('startMcpServer HTTP session lifecycle', () => {
  let sandbox = '';
  let root = '';
  let built: Awaited<ReturnType<typeof createTestServerOptions>>;
  let running: RunningMcpServer | undefined;
  const start = async (sessionIdleTimeoutMs?: number) => {
    running = await startMcpServer({
      ...built.serverOptions,
      transport: {
        kind: 'http',
        ...(sessionIdleTimeoutMs === undefined ? {} : { sessionIdleTimeoutMs }),
      },
    });
    return running.url ?? '';
  };
  beforeAll(async () => {
    sandbox = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-http-life-')));
    root = path.join(sandbox, 'app');
    await mkdir(root);
    await writeFile(path.join(root, 'hello.txt'), 'over http');
    built = await createTestServerOptions({
      root,
      stateDir: path.join(sandbox, 'state'),
      grant: ['read_file', 'write_file'],
      mode: 'ask',
    });
  });
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });
  afterAll(async () => {
    await built.close();
    await rm(sandbox, { recursive: true, force: true });
  });

  it('serves 40 clients in turn that close without DELETE', async () => {
    const url = await start();
    const answered: boolean[] = [];

    for (let index = 0; index < 40; index += 1) {
      const client = createTestClient();
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const result = await client.callTool({ name: 'read_file', arguments: { path: 'hello.txt' } });
      answered.push(JSON.stringify(result.content).includes('over http'));
      await client.close();
    }

    expect(answered).toEqual(Array.from({ length: 40 }, () => true));
  });

  it('ends a session idle past the timeout, and keeps one in use', async () => {
    const url = await start(300);
    const idle = await connectClient(url);
    const used = await connectClient(url);
    await idle.client.close();

    for (let tick = 0; tick < 6; tick += 1) {
      await sleep(100);
      await used.client.ping();
    }

    expect(await pingStatus(url, idle.sessionId)).toBe(404);
    expect(await pingStatus(url, used.sessionId)).toBe(200);
    await used.client.close();
  });

  it('keeps a session whose call is in flight past the idle timeout', async () => {
    const url = await start(200);
    const pending = deferred<ElicitResult>();
    const busy = await connectClient(url, () => pending.promise);

    const call = busy.client.callTool({
      name: 'write_file',
      arguments: { path: 'slow.txt', content: 'late' },
    });
    await sleep(700);
    pending.resolve({ action: 'accept', content: { decision: 'approve once' } });
    const result = await call;

    expect(result.isError).toBeUndefined();
    expect(existsSync(path.join(root, 'slow.txt'))).toBe(true);
    expect(await pingStatus(url, busy.sessionId)).toBe(200);
    await busy.client.close();
  });

  it('evicts the longest-idle session when full, never one with a call in flight', async () => {
    const url = await start();
    const pending = deferred<ElicitResult>();
    const busy = await connectClient(url, () => pending.promise);
    const call = busy.client.callTool({
      name: 'write_file',
      arguments: { path: 'held.txt', content: 'held' },
    });
    // Clients that hold no stream and finished their requests: idle, yet not gone (an SDK
    // client's close drops its GET stream, which now ends its session at once).
    const idle: string[] = [];
    for (let index = 1; index < MAX_HTTP_SESSIONS; index += 1) {
      const { sessionId } = await post(url, { body: INITIALIZE });
      idle.push(sessionId ?? '');
    }

    const newcomer = await connectClient(url);
    pending.resolve({ action: 'accept', content: { decision: 'approve once' } });

    expect((await call).isError).toBeUndefined();
    expect(await pingStatus(url, busy.sessionId)).toBe(200);
    expect(await pingStatus(url, idle[0] ?? '')).toBe(404);
    expect(await pingStatus(url, idle[1] ?? '')).toBe(200);
    expect(await pingStatus(url, newcomer.sessionId)).toBe(200);
    await newcomer.client.close();
    await busy.client.close();
  });

  it('frees the place of a session its client DELETEs', async () => {
    const url = await start();
    const first = await connectClient(url);

    await first.transport.terminateSession();

    expect(await pingStatus(url, first.sessionId)).toBe(404);
    await first.client.close();
  });
});

describe('serveHttp token', () => {
  let served: ServedHttp;
  let serversCreated = 0;
  let token = '';
  let bare = '';
  beforeEach(async () => {
    serversCreated = 0;
    served = await serveHttp({
      port: 0,
      openSession: () => {
        serversCreated += 1;
        return bareSession(new Server({ name: 'token-test', version: '0' }, { capabilities: {} }));
      },
    });
    const url = new URL(served.url);
    token = url.searchParams.get('token') ?? '';
    url.search = '';
    bare = url.href;
  });
  afterEach(() => served.close());

  it('connects an SDK client configured with the printed URL alone', async () => {
    const client = createTestClient();

    await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));

    expect(client.getServerVersion()?.name).toBe('token-test');
    await client.close();
  });

  it('connects an SDK client sending the token as Authorization: Bearer', async () => {
    const client = createTestClient();
    const transport = new StreamableHTTPClientTransport(new URL(bare), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    });

    await client.connect(transport);

    expect(client.getServerVersion()?.name).toBe('token-test');
    await client.close();
  });

  it('refuses an SDK client configured without the token', async () => {
    const client = createTestClient();

    const attempt = client.connect(new StreamableHTTPClientTransport(new URL(bare)));

    await expect(attempt).rejects.toMatchObject({ code: 401 });
    expect(serversCreated).toBe(0);
  });

  it('draws a new token on every start', async () => {
    const second = await serveHttp({
      port: 0,
      openSession: () => bareSession(new Server({ name: 'x', version: '0' })),
    });
    const other = new URL(second.url).searchParams.get('token');
    await second.close();

    expect(other).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(other).not.toBe(token);
  });

  const flipped = (value: string) => `${value.slice(0, -1)}${value.endsWith('A') ? 'B' : 'A'}`;
  it.each<
    [string, (token: string) => { query?: string; path?: string; headers?: Record<string, string> }]
  >([
    ['no token at all', () => ({})],
    ['an empty token', () => ({ query: '?token=' })],
    ['a wrong token of the right length', (value) => ({ query: `?token=${flipped(value)}` })],
    ['a token in the wrong case', (value) => ({ query: `?token=${value.toUpperCase()}` })],
    ['a prefix of the token', (value) => ({ query: `?token=${value.slice(0, -1)}` })],
    ['the token with a byte appended', (value) => ({ query: `?token=${value}A` })],
    ['the token under another query name', (value) => ({ query: `?access_token=${value}` })],
    ['the token in another header', (value) => ({ headers: { 'x-mcp-token': value } })],
    ['the token in a cookie', (value) => ({ headers: { cookie: `token=${value}` } })],
    ['the token in the path', (value) => ({ path: `/mcp/${value}` })],
    ['the token as a bare Authorization', (value) => ({ headers: { authorization: value } })],
    [
      'the token as Basic credentials',
      (value) => ({ headers: { authorization: `Basic ${value}` } }),
    ],
    ['a wrong Bearer', (value) => ({ headers: { authorization: `Bearer ${flipped(value)}` } })],
    [
      'a right query token beside a wrong Bearer',
      (value) => ({
        query: `?token=${value}`,
        headers: { authorization: `Bearer ${flipped(value)}` },
      }),
    ],
    ['a right query token beside a wrong one', (value) => ({ query: `?token=${value}&token=x` })],
  ])('answers 401 to %s, before any MCP work', async (_case, place) => {
    const { query = '', path: where = '/mcp', headers = {} } = place(token);

    const { status, authenticate } = await post(`${new URL(bare).origin}${where}${query}`, {
      headers,
      body: INITIALIZE,
    });

    expect(status).toBe(401);
    expect(authenticate).toMatch(/^Bearer realm="toolhost serve"/);
    expect(authenticate).not.toContain(token);
    expect(serversCreated).toBe(0);
  });

  it('accepts the token in the query and as Bearer at once', async () => {
    const { status } = await post(served.url, {
      headers: { authorization: `bearer ${token}` },
      body: INITIALIZE,
    });

    expect(status).toBe(200);
    expect(serversCreated).toBe(1);
  });

  it('treats a live session id without the token as no credential', async () => {
    const client = createTestClient();
    const transport = new StreamableHTTPClientTransport(new URL(served.url));
    await client.connect(transport);

    const { status } = await post(bare, {
      headers: {
        'mcp-session-id': transport.sessionId ?? '',
        'mcp-protocol-version': '2025-06-18',
      },
      body: { jsonrpc: '2.0', id: 2, method: 'ping' },
    });

    expect(status).toBe(401);
    await client.close();
  });

  it('says 401, not 404, to an unknown path without the token', async () => {
    const without = await post(`${new URL(bare).origin}/other`, {});
    const withToken = await post(`${new URL(bare).origin}/other?token=${token}`, {});

    expect(without.status).toBe(401);
    expect(withToken.status).toBe(404);
  });
});

describe('serveHttp --token-file', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-token-')));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('writes the token a Bearer client then connects with, and removes it on close', async () => {
    const tokenFile = path.join(dir, 'token');
    const served = await serveHttp({
      port: 0,
      openSession: () => bareSession(new Server({ name: 'file-test', version: '0' })),
      tokenFile,
    });
    const token = (await readFile(tokenFile, 'utf8')).trim();
    const url = new URL(served.url);
    url.search = '';
    const client = createTestClient();

    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    await client.close();
    await served.close();

    expect(client.getServerVersion()?.name).toBe('file-test');
    expect(existsSync(tokenFile)).toBe(false);
  });

  it('refuses to start over an existing file and leaves it alone', async () => {
    const tokenFile = path.join(dir, 'token');
    await writeFile(tokenFile, 'theirs');

    const attempt = serveHttp({
      port: 0,
      openSession: () => bareSession(new Server({ name: 'x', version: '0' })),
      tokenFile,
    });

    await expect(attempt).rejects.toMatchObject({ name: 'CliUsageError' });
    expect(await readFile(tokenFile, 'utf8')).toBe('theirs');
  });
});

// A session without a run of its own: for tests of the endpoint, not of a run's lifetime.
function bareSession(server: Server): Promise<HttpSession> {
  return Promise.resolve({
    server,
    busy: () => false,
    expectCalls: () => () => undefined,
    leave: () => undefined,
    close: () => Promise.resolve(),
  });
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '0' },
  },
};

async function connectClient(
  url: string,
  elicit?: () => Promise<ElicitResult>,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport; sessionId: string }> {
  const client = new Client(
    { name: 'toolhost-test', version: '1.0.0' },
    { capabilities: elicit === undefined ? {} : { elicitation: { form: {} } } },
  );
  if (elicit !== undefined) client.setRequestHandler(ElicitRequestSchema, () => elicit());
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport, sessionId: transport.sessionId ?? '' };
}

async function pingStatus(url: string, sessionId: string): Promise<number> {
  const { status } = await post(url, {
    headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
    body: { jsonrpc: '2.0', id: 9, method: 'ping' },
  });
  return status;
}

function deferred<T>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function post(
  url: string,
  options: { readonly headers?: Record<string, string>; readonly body?: unknown },
): Promise<{ status: number; authenticate: string | undefined; sessionId: string | undefined }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        headers: {
          host: target.host,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...options.headers,
        },
      },
      (response) => {
        response.resume();
        const authenticate = response.headers['www-authenticate'];
        const sessionId = response.headers['mcp-session-id'];
        resolve({
          status: response.statusCode ?? 0,
          authenticate,
          sessionId: typeof sessionId === 'string' ? sessionId : undefined,
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(JSON.stringify(options.body ?? { jsonrpc: '2.0', id: 1, method: 'tools/list' }));
  });
}
