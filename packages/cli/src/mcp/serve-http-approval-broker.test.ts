import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { request, type ClientRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveSettings } from '../config/resolve-settings.js';
import { startMcpServer, type RunningMcpServer } from '../mcp-server.js';
import {
  ApprovalBroker,
  type ApprovalChange,
  type PendingApproval,
} from '../ui/approval-broker.js';
import { StdioFrameTransport } from './stdio-frame-transport.js';
import { createTestClient, createTestServerOptions } from './test-support/in-process-server.js';

// `startMcpServer` passes the broker on: over HTTP each client session is its own session id,
// and `toolhost serve`'s settings shape hands it to every run it opens.
describe('startMcpServer with an approvalBroker', () => {
  let sandbox = '';
  let root = '';
  beforeEach(async () => {
    sandbox = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-broker-serve-')));
    root = path.join(sandbox, 'app');
    await mkdir(root);
  });
  afterEach(() => rm(sandbox, { recursive: true, force: true }));

  it('waits on the page per HTTP session, named by its session id', async () => {
    const built = await createTestServerOptions({
      root,
      stateDir: path.join(sandbox, 'state'),
      grant: ['write_file'],
      mode: 'ask',
    });
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    let running: RunningMcpServer | undefined;
    const client = createTestClient();
    try {
      running = await startMcpServer({
        ...built.serverOptions,
        approvalBroker: broker,
        transport: { kind: 'http' },
      });
      const transport = new StreamableHTTPClientTransport(new URL(running.url ?? ''));
      await client.connect(transport);

      const call = client.callTool({
        name: 'write_file',
        arguments: { path: 'over-http.txt', content: 'approved from the page' },
      }) as Promise<CallToolResult>;
      const pending = await nextPending(broker);

      expect(pending.sessionId).toBe(transport.sessionId);
      expect(pending.sessionId).not.toBe('stdio');
      broker.decide(pending.id, { choice: 'once' });
      expect((await call).isError).not.toBe(true);
      expect(await readFile(path.join(root, 'over-http.txt'), 'utf8')).toBe(
        'approved from the page',
      );
    } finally {
      broker.close();
      await client.close();
      await running?.close();
      await built.close();
    }
  });

  it("withdraws only the call whose POST dropped; the session's other call waits on", async () => {
    const built = await createTestServerOptions({
      root,
      stateDir: path.join(sandbox, 'state'),
      grant: ['write_file'],
      mode: 'ask',
    });
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    const changes: ApprovalChange[] = [];
    broker.subscribe((change) => changes.push(change));
    let running: RunningMcpServer | undefined;
    const client = createTestClient();
    try {
      running = await startMcpServer({
        ...built.serverOptions,
        approvalBroker: broker,
        transport: { kind: 'http' },
      });
      const transport = new StreamableHTTPClientTransport(new URL(running.url ?? ''));
      await client.connect(transport);
      // The SDK client's GET stream and this call's POST stay open throughout.
      const kept = client.callTool({
        name: 'write_file',
        arguments: { path: 'kept.txt', content: 'still wanted' },
      }) as Promise<CallToolResult>;
      const keptApproval = await nextPending(broker);
      // A second call of the same session, on a POST whose connection then drops unanswered.
      const dropped = rawToolCall(running.url ?? '', transport, 'dropped.txt');
      const droppedApproval = await nextPending(broker);

      dropped.destroy();
      await waitUntil(() => broker.pending().length === 1);

      expect(changes.filter((change) => change.kind === 'settled')).toEqual([
        expect.objectContaining({ id: droppedApproval.id, by: 'withdrawn' }),
      ]);
      expect(broker.pending().map((approval) => approval.id)).toEqual([keptApproval.id]);
      expect(broker.decide(droppedApproval.id, { choice: 'once' })).toBe(false);
      await client.ping();
      expect(broker.decide(keptApproval.id, { choice: 'once' })).toBe(true);
      expect((await kept).isError).not.toBe(true);
      expect(await readFile(path.join(root, 'kept.txt'), 'utf8')).toBe('still wanted');
      expect(existsSync(path.join(root, 'dropped.txt'))).toBe(false);
    } finally {
      broker.close();
      await client.close();
      await running?.close();
      await built.close();
    }
  });

  it("hands the broker to toolhost serve's own session (the settings shape)", async () => {
    const settings = resolveSettings(
      root,
      { config: {} },
      { tools: ['write_file'], stateDir: path.join(sandbox, 'state'), mode: 'ask' },
    );
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const served = startMcpServer({
      settings,
      approvalBroker: broker,
      io: {
        stdin: toServer as unknown as NodeJS.ReadStream,
        stdout: fromServer as unknown as NodeJS.WriteStream,
        stderr: new PassThrough() as unknown as NodeJS.WriteStream,
      },
    });
    const client = new Client({ name: 'toolhost-test', version: '1.0.0' });
    try {
      await client.connect(new StdioFrameTransport({ stdin: fromServer, stdout: toServer }));

      const call = client.callTool({
        name: 'write_file',
        arguments: { path: 'served.txt', content: 'approved from the page' },
      }) as Promise<CallToolResult>;
      const pending = await nextPending(broker);

      expect(pending).toMatchObject({ sessionId: 'stdio', toolId: 'write_file' });
      broker.decide(pending.id, { choice: 'once' });
      expect((await call).isError).not.toBe(true);
      expect(await readFile(path.join(root, 'served.txt'), 'utf8')).toBe('approved from the page');
    } finally {
      broker.close();
      toServer.end();
      await served;
    }
  });
});

// A `tools/call` POSTed by hand into the client's session, so the test can drop its connection.
function rawToolCall(
  url: string,
  session: StreamableHTTPClientTransport,
  file: string,
): ClientRequest {
  const target = new URL(url);
  const outgoing = request({
    host: target.hostname,
    port: target.port,
    path: `${target.pathname}${target.search}`,
    method: 'POST',
    headers: {
      host: target.host,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': session.sessionId ?? '',
      'mcp-protocol-version': session.protocolVersion ?? '',
    },
  });
  // Destroyed on purpose: its error is the point, not a failure.
  outgoing.on('error', () => undefined);
  outgoing.end(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 'raw-1',
      method: 'tools/call',
      params: { name: 'write_file', arguments: { path: file, content: 'x' } },
    }),
  );
  return outgoing;
}

async function waitUntil(check: () => boolean): Promise<void> {
  const until = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function nextPending(broker: ApprovalBroker): Promise<PendingApproval> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error('no approval was requested'));
    }, 5_000);
    const stop = broker.subscribe((change) => {
      if (change.kind !== 'requested') return;
      clearTimeout(timer);
      stop();
      resolve(change.approval);
    });
  });
}
