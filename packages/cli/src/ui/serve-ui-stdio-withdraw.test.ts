import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveSettings } from '../config/resolve-settings.js';
import { startMcpServer } from '../mcp-server.js';
import { StdioFrameTransport } from '../mcp/stdio-frame-transport.js';
import type { ApprovalChange, PendingApproval } from './approval-broker.js';
import { startServeUi } from './start-serve-ui.js';
import { loopbackRequest } from './test-support/loopback-request.js';
import type { UiSessionInfo } from './ui-session-table.js';

// `serve --ui` over stdio, wired as the command wires it: the client hanging up (stdin's EOF)
// while its write waits withdraws the approval — never left for the page, never written.
describe('toolhost serve --ui over stdio when stdin ends while a write waits', () => {
  let sandbox = '';
  let root = '';
  beforeEach(async () => {
    sandbox = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-stdio-withdraw-')));
    root = path.join(sandbox, 'app');
    await mkdir(root);
  });
  afterEach(() => rm(sandbox, { recursive: true, force: true }));

  it('withdraws the approval, writes nothing, and lists the session closed', async () => {
    const log = path.join(sandbox, 'audit.jsonl');
    const settings = resolveSettings(
      root,
      { config: {} },
      { tools: ['write_file'], stateDir: path.join(sandbox, 'state'), mode: 'ask', auditLog: log },
    );
    const ui = await startServeUi({
      settings,
      io: { stderr: new PassThrough() as unknown as NodeJS.WriteStream },
      approvalTimeoutMs: 60_000,
    });
    const changes: ApprovalChange[] = [];
    ui.approvalBroker.subscribe((change) => changes.push(change));
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const served = startMcpServer({
      settings,
      io: {
        stdin: toServer as unknown as NodeJS.ReadStream,
        stdout: fromServer as unknown as NodeJS.WriteStream,
        stderr: new PassThrough() as unknown as NodeJS.WriteStream,
      },
      traceRegistry: ui.wrapRegistry,
      approvalBroker: ui.approvalBroker,
      onRunClosed: ui.runClosed,
      runSessionId: ui.sessionIdOf,
    });
    const client = new Client({ name: 'stdio-withdraw-test', version: '1.0.0' });
    try {
      await client.connect(new StdioFrameTransport({ stdin: fromServer, stdout: toServer }));
      // Never answered: the client hung up, the server is gone before its refusal is sent.
      void client
        .callTool({ name: 'write_file', arguments: { path: 'gone.txt', content: 'x' } })
        .catch(() => undefined);
      const approval = await requested(changes);

      toServer.end();
      await served;

      expect(changes.filter((change) => change.kind === 'settled')).toEqual([
        expect.objectContaining({ id: approval.id, by: 'withdrawn', outcome: 'denied' }),
      ]);
      expect(ui.approvalBroker.decide(approval.id, { choice: 'once' })).toBe(false);
      expect(existsSync(path.join(root, 'gone.txt'))).toBe(false);
      expect(await decidedRecords(log)).toEqual([
        expect.objectContaining({ toolId: 'write_file', outcome: 'denied', by: 'withdrawn' }),
      ]);
      const sessions = await listSessions(ui.url);
      expect(sessions.find((session) => session.id === approval.sessionId)).toMatchObject({
        closedAt: expect.any(Number),
      });
    } finally {
      toServer.end();
      await served;
      await client.close();
      await ui.close();
    }
  }, 20_000);
});

async function requested(changes: readonly ApprovalChange[]): Promise<PendingApproval> {
  const until = Date.now() + 5_000;
  for (;;) {
    const found = changes.find((change) => change.kind === 'requested');
    if (found?.kind === 'requested') return found.approval;
    if (Date.now() > until) throw new Error('no approval was requested');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function decidedRecords(log: string): Promise<Record<string, unknown>[]> {
  return (await readFile(log, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((record) => record['event'] === 'approval_decided');
}

async function listSessions(pageUrl: string): Promise<UiSessionInfo[]> {
  const url = new URL(pageUrl);
  const answer = await loopbackRequest(Number(url.port), `/api/sessions${url.search}`);
  return (JSON.parse(answer.body) as { sessions: UiSessionInfo[] }).sessions;
}
