import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from '../../test/workspace.js';
import type { PendingApproval } from './approval-broker.js';
import { PLANTED_SECRET } from './test-support/planted-secret-run.js';
import {
  startServeUiWithClients,
  writeAskFlags,
  type ServeUiWithClients,
} from './test-support/serve-ui-with-clients.js';

// Who decided lands in the audit log beside what was asked: the page's approval and its denial
// (whose reason is a person's free text, here carrying a token), and the timeout's refusal.
describe('toolhost serve --ui --audit-log', () => {
  let ws: Workspace;
  let served: ServeUiWithClients;
  let client: Client;
  let log = '';
  beforeAll(async () => {
    ws = await createWorkspace();
    log = path.join(path.dirname(ws.stateDir), 'audit.jsonl');
    served = await startServeUiWithClients(
      [...writeAskFlags(ws), '--audit-log', log, '--ui-approval-timeout', '1'],
      ['audit-decided-test'],
    );
    [client] = served.clients as [Client];
  }, 30_000);
  afterAll(async () => {
    await served?.close();
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
      const response = await served.uiRequest('/api/approvals');
      const [first] = (JSON.parse(response.body) as { pending: PendingApproval[] }).pending;
      if (first !== undefined) return first;
      if (Date.now() > until) throw new Error('no approval was requested');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function decide(approval: PendingApproval, body: Record<string, string>): Promise<void> {
    const response = await served.uiRequest(`/api/approvals/${approval.id}`, {
      method: 'POST',
      json: { ...body, sessionId: approval.sessionId },
    });
    expect(response.status).toBe(200);
  }
});
