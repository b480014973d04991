import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from '../../test/workspace.js';
import type { PendingApproval } from './approval-broker.js';
import { loopbackRequest } from './test-support/loopback-request.js';
import { PLANTED_SECRET } from './test-support/planted-secret-run.js';
import { startServeUi, type ServeUiProcess } from './test-support/serve-ui-process.js';

// Who decided lands in the audit log beside what was asked: the page's approval and its denial
// (whose reason is a person's free text, here carrying a token), and the timeout's refusal.
describe('toolhost serve --ui --audit-log', () => {
  let ws: Workspace;
  let serve: ServeUiProcess;
  let client: Client;
  let log = '';
  let port = 0;
  let token = '';
  beforeAll(async () => {
    ws = await createWorkspace();
    log = path.join(path.dirname(ws.stateDir), 'audit.jsonl');
    serve = await startServeUi([
      '--root',
      ws.root,
      ...ws.stateFlags,
      '--tools',
      'write_file',
      '--mode',
      'ask',
      '--audit-log',
      log,
      '--ui-approval-timeout',
      '1',
    ]);
    const ui = new URL(serve.uiUrl);
    port = Number(ui.port);
    token = ui.searchParams.get('token') ?? '';
    client = new Client({ name: 'audit-decided-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(serve.mcpUrl)));
  }, 30_000);
  afterAll(async () => {
    await client?.close();
    await serve?.stop();
    await ws.cleanup();
  });

  it('writes approval_decided with who decided, the reason redacted', async () => {
    const approved = write('yes.txt');
    await decide(await nextPending(), { choice: 'once' });
    expect((await approved).isError).not.toBe(true);
    const denied = write('no.txt');
    await decide(await nextPending(), {
      choice: 'deny',
      reason: `leaks ${PLANTED_SECRET}, so no`,
    });
    expect((await denied).isError).toBe(true);
    const late = await write('late.txt');
    expect(late.isError).toBe(true);

    const lines = (await readFile(log, 'utf8')).trim().split('\n');
    const decided = lines
      .map((text) => JSON.parse(text) as Record<string, unknown>)
      .filter((record) => record['event'] === 'approval_decided');
    expect(decided).toEqual([
      expect.objectContaining({ toolId: 'write_file', outcome: 'approved', by: 'page' }),
      expect.objectContaining({ toolId: 'write_file', outcome: 'denied', by: 'page' }),
      expect.objectContaining({ toolId: 'write_file', outcome: 'denied', by: 'timeout' }),
    ]);
    expect(decided[0]).not.toHaveProperty('reason');
    expect(decided[1]?.['reason']).toMatch(/^leaks .+, so no$/u);
    expect(lines.join('\n')).not.toContain(PLANTED_SECRET);
  }, 30_000);

  function write(file: string): Promise<CallToolResult> {
    return client.callTool({
      name: 'write_file',
      arguments: { path: file, content: 'x' },
    }) as Promise<CallToolResult>;
  }

  async function nextPending(): Promise<PendingApproval> {
    const until = Date.now() + 10_000;
    for (;;) {
      const response = await loopbackRequest(port, '/api/approvals', {
        headers: { authorization: `Bearer ${token}` },
      });
      const [first] = (JSON.parse(response.body) as { pending: PendingApproval[] }).pending;
      if (first !== undefined) return first;
      if (Date.now() > until) throw new Error('no approval was requested');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function decide(approval: PendingApproval, body: Record<string, string>): Promise<void> {
    const response = await loopbackRequest(port, `/api/approvals/${approval.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, sessionId: approval.sessionId }),
    });
    expect(response.status).toBe(200);
  }
});
