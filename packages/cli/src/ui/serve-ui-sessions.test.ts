import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from '../../test/workspace.js';
import type { PendingApproval } from './approval-broker.js';
import type { UiEvent } from './ui-event.js';
import {
  startServeUiWithClients,
  writeAskFlags,
  type ServeUiWithClients,
} from './test-support/serve-ui-with-clients.js';

// Two HTTP clients of one `serve --ui`: each pending approval is keyed by the page session its
// calls are shown under, and an answer given for one session never settles the other's call.
describe('toolhost serve --ui with two HTTP clients', () => {
  let ws: Workspace;
  let served: ServeUiWithClients;
  let first: Client;
  let second: Client;
  beforeAll(async () => {
    ws = await createWorkspace();
    served = await startServeUiWithClients(
      [...writeAskFlags(ws), '--ui-approval-timeout', '60'],
      ['sessions-test-a', 'sessions-test-b'],
    );
    [first, second] = served.clients as [Client, Client];
  }, 30_000);
  afterAll(async () => {
    await served?.close();
    await ws.cleanup();
  });

  it('names each pending approval by the session its calls show, and keeps answers apart', async () => {
    const callA = first.callTool({
      name: 'write_file',
      arguments: { path: 'a.txt', content: 'from the first client' },
    }) as Promise<CallToolResult>;
    const callB = second.callTool({
      name: 'write_file',
      arguments: { path: 'b.txt', content: 'from the second client' },
    }) as Promise<CallToolResult>;
    const pending = await waitForPending(2);
    const approvalA = byPath(pending, 'a.txt');
    const approvalB = byPath(pending, 'b.txt');
    const events = await timeline();
    const sessionOfCall = (file: string) =>
      events.find(
        (event) =>
          event.step === 'approval_requested' && (event.preview as { path?: string }).path === file,
      )?.sessionId;

    expect(approvalA.sessionId).toBe(sessionOfCall('a.txt'));
    expect(approvalB.sessionId).toBe(sessionOfCall('b.txt'));
    expect(approvalA.sessionId).not.toBe(approvalB.sessionId);
    expect((await approvalsOf(approvalA.sessionId)).map((approval) => approval.id)).toEqual([
      approvalA.id,
    ]);

    const crossed = await decide(approvalA.id, { choice: 'once', sessionId: approvalB.sessionId });
    expect(crossed).toBe(404);
    expect((await pendingNow()).map((approval) => approval.id).sort()).toEqual(
      [approvalA.id, approvalB.id].sort(),
    );

    expect(await decide(approvalA.id, { choice: 'once', sessionId: approvalA.sessionId })).toBe(
      200,
    );
    expect((await callA).isError).not.toBe(true);
    expect(await readFile(path.join(ws.root, 'a.txt'), 'utf8')).toBe('from the first client');
    expect((await pendingNow()).map((approval) => approval.id)).toEqual([approvalB.id]);
    expect(existsSync(path.join(ws.root, 'b.txt'))).toBe(false);

    expect(await decide(approvalB.id, { choice: 'deny', sessionId: approvalB.sessionId })).toBe(
      200,
    );
    expect((await callB).isError).toBe(true);
    expect(existsSync(path.join(ws.root, 'b.txt'))).toBe(false);
  }, 30_000);

  async function get(target: string): Promise<unknown> {
    const response = await served.uiRequest(target);
    expect(response.status).toBe(200);
    return JSON.parse(response.body);
  }

  async function pendingNow(): Promise<PendingApproval[]> {
    return ((await get('/api/approvals')) as { pending: PendingApproval[] }).pending;
  }

  async function approvalsOf(sessionId: string): Promise<PendingApproval[]> {
    const target = `/api/approvals?session=${encodeURIComponent(sessionId)}`;
    return ((await get(target)) as { pending: PendingApproval[] }).pending;
  }

  async function timeline(): Promise<UiEvent[]> {
    return ((await get('/api/timeline')) as { events: UiEvent[] }).events;
  }

  async function waitForPending(count: number): Promise<PendingApproval[]> {
    const until = Date.now() + 15_000;
    for (;;) {
      const pending = await pendingNow();
      if (pending.length >= count) return pending;
      if (Date.now() > until) throw new Error(`only ${pending.length} approval(s) pending`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function decide(id: string, body: Record<string, string>): Promise<number> {
    const response = await served.uiRequest(`/api/approvals/${id}`, {
      method: 'POST',
      json: body,
    });
    return response.status;
  }
});

function byPath(pending: readonly PendingApproval[], file: string): PendingApproval {
  const found = pending.find((approval) => approval.preview.path === file);
  if (found === undefined) throw new Error(`no approval for ${file}`);
  return found;
}
