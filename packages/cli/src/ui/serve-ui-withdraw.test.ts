import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from '../../test/workspace.js';
import { REPO_ROOT } from '../mcp/test-support/serve-client.js';
import type { PendingApproval } from './approval-broker.js';
import {
  startServeUiWithClients,
  writeAskFlags,
  type ServeUiWithClients,
} from './test-support/serve-ui-with-clients.js';
import type { UiSessionInfo } from './ui-session-table.js';

const LEAVING_CLIENT = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  'test-support/leaving-client.ts',
);

// An approval dies with its caller: a client that exits, is killed or closes its session while
// its write waits leaves no approvable card behind, and nothing is written after it left. The
// first client's own write waits throughout, and is never withdrawn by another client leaving.
describe('toolhost serve --http --ui when a waiting client leaves', () => {
  let ws: Workspace;
  let served: ServeUiWithClients;
  let live: Client;
  let liveCall: Promise<CallToolResult>;
  let liveApproval: PendingApproval;
  let log = '';
  const children = new Set<ChildProcessWithoutNullStreams>();
  beforeAll(async () => {
    ws = await createWorkspace();
    log = path.join(path.dirname(ws.stateDir), 'audit.jsonl');
    served = await startServeUiWithClients(
      [...writeAskFlags(ws), '--audit-log', log, '--ui-approval-timeout', '120'],
      ['withdraw-test-live'],
    );
    [live] = served.clients as [Client];
    liveCall = live.callTool(
      { name: 'write_file', arguments: { path: 'live.txt', content: 'still wanted' } },
      undefined,
      { timeout: 120_000 },
    ) as Promise<CallToolResult>;
    // Awaited by the last test; a failed run must not add an unhandled rejection to its report.
    liveCall.catch(() => undefined);
    liveApproval = await pendingFor('live.txt');
  }, 30_000);
  afterAll(async () => {
    for (const child of children) stopChild(child);
    await served?.close();
    await ws.cleanup();
  });

  it('withdraws the approval of a client process that exits while it waits', async () => {
    const child = await startLeavingClient('exited.txt');
    const approval = await pendingFor('exited.txt');

    child.stdin.write('exit\n');
    await exited(child);

    await expectWithdrawn(approval, 'exited.txt', 1);
  }, 30_000);

  it('withdraws the approval of a client process killed while it waits', async () => {
    const child = await startLeavingClient('killed.txt');
    const approval = await pendingFor('killed.txt');

    stopChild(child);
    await exited(child);

    await expectWithdrawn(approval, 'killed.txt', 2);
  }, 30_000);

  it('withdraws the approval of a client that DELETEs its session while it waits', async () => {
    const client = new Client({ name: 'withdraw-test-delete', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(served.serve.mcpUrl));
    await client.connect(transport);
    const call = client
      .callTool({ name: 'write_file', arguments: { path: 'deleted.txt', content: 'x' } })
      .catch(() => undefined);
    const approval = await pendingFor('deleted.txt');

    await transport.terminateSession();
    await client.close();
    await call;

    await expectWithdrawn(approval, 'deleted.txt', 3);
  }, 30_000);

  it("keeps a live client's approval pending while others leave, and it still writes", async () => {
    const pending = await pendingApprovals();

    expect(pending.map((approval) => approval.id)).toEqual([liveApproval.id]);
    expect(await sessionOf(liveApproval)).not.toHaveProperty('closedAt');
    await decide(liveApproval, 200);
    expect((await liveCall).isError).not.toBe(true);
    expect(await readFile(path.join(ws.root, 'live.txt'), 'utf8')).toBe('still wanted');
  }, 30_000);

  async function expectWithdrawn(
    approval: PendingApproval,
    file: string,
    withdrawnSoFar: number,
  ): Promise<void> {
    // Settled at once, by nobody: the refusal the audit log records is the withdrawal.
    await waitFor(async () => (await withdrawnRecords()).length === withdrawnSoFar);
    await waitFor(async () => (await sessionOf(approval))?.closedAt !== undefined);

    expect((await pendingApprovals()).map((pending) => pending.id)).not.toContain(approval.id);
    // The late click: nothing is left to approve.
    await decide(approval, 404);
    expect(existsSync(path.join(ws.root, file))).toBe(false);
    expect((await withdrawnRecords()).at(-1)).toMatchObject({
      toolId: 'write_file',
      outcome: 'denied',
      by: 'withdrawn',
    });
    expect(await sessionOf(approval)).toMatchObject({ closedAt: expect.any(Number) });
  }

  async function startLeavingClient(file: string): Promise<ChildProcessWithoutNullStreams> {
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', LEAVING_CLIENT, served.serve.mcpUrl, file],
      { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '' } },
    );
    children.add(child);
    await new Promise<void>((resolve, reject) => {
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        if (stdout.includes('calling\n')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`the client exited (${code}) early`)));
    });
    return child;
  }

  async function pendingApprovals(): Promise<PendingApproval[]> {
    const response = await served.uiRequest('/api/approvals');
    return (JSON.parse(response.body) as { pending: PendingApproval[] }).pending;
  }

  async function pendingFor(file: string): Promise<PendingApproval> {
    let found: PendingApproval | undefined;
    await waitFor(async () => {
      found = (await pendingApprovals()).find(
        (approval) => (approval.preview as { path?: string }).path === file,
      );
      return found !== undefined;
    });
    if (found === undefined) throw new Error(`no approval for ${file}`);
    return found;
  }

  async function decide(approval: PendingApproval, status: number): Promise<void> {
    const response = await served.uiRequest(`/api/approvals/${approval.id}`, {
      method: 'POST',
      json: { choice: 'once', sessionId: approval.sessionId },
    });
    expect(response.status).toBe(status);
  }

  async function sessionOf(approval: PendingApproval): Promise<UiSessionInfo | undefined> {
    const response = await served.uiRequest('/api/sessions');
    const { sessions } = JSON.parse(response.body) as { sessions: UiSessionInfo[] };
    return sessions.find((session) => session.id === approval.sessionId);
  }

  async function withdrawnRecords(): Promise<Record<string, unknown>[]> {
    const text = existsSync(log) ? await readFile(log, 'utf8') : '';
    return text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((record) => record['event'] === 'approval_decided' && record['by'] === 'withdrawn');
  }
});

function exited(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

// SIGKILL by its PID: no handler of the client runs, its connections simply drop.
function stopChild(child: ChildProcessWithoutNullStreams): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  process.kill(child.pid, 'SIGKILL');
}

async function waitFor(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
