// The fleet's worker endpoint: WORKERS processes (node:cluster) sharing ONE port, registered with
// Restate as ONE deployment. Restate sends an invocation's retries to the deployment it started
// on, so a worker that dies is covered by its siblings behind the same URL, never by another
// registration. Every worker sees the same SQLite effect journal under FLEET_DIR.
//
//   FLEET_DIR=/tmp/fleet PORT=9080 WORKERS=2 npx tsx --conditions source examples/restate-fleet/worker.ts
//   npx restate-server   # then: curl -X POST localhost:9070/deployments -d '{"uri":"http://localhost:9080"}'
//
// Events go to stdout as JSON lines (`listening`, `turn`, `approval`): `approval` carries the
// approvalId that `resolve.ts` (or any `resolveApproval` caller) answers.
import cluster from 'node:cluster';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import * as restate from '@restatedev/restate-sdk';
import { BUILTIN_TOOLS, createToolRegistry, type ToolDispatchContext } from '@toolhost/core';
import { createNodeToolHost } from '@toolhost/node';
import { createSqliteEffectJournal } from '@toolhost/node/journal';
import {
  createToolRunObject,
  type ToolRunModelRequest,
  type ToolRunModelTurn,
} from '@toolhost/restate';

const setting = (name: string, fallback: string): string => process.env[name] || fallback;
const fleetDir = path.resolve(setting('FLEET_DIR', path.join(tmpdir(), 'toolhost-fleet')));
const port = Number(setting('PORT', '9080'));
const workers = Number(setting('WORKERS', '2'));
const emit = (event: string, fields: object): void =>
  void process.stdout.write(`${JSON.stringify({ event, pid: process.pid, ...fields })}\n`);

if (cluster.isPrimary && workers > 1) {
  for (let index = 0; index < workers; index += 1) cluster.fork();
  // A killed worker is replaced; the runs it held resume on whichever worker Restate reaches.
  // One that exits on its own failed to start (a bad setting): stop, rather than fork in a loop.
  cluster.on('exit', (worker, code, signal) => {
    emit('worker_exit', { worker: worker.process.pid, code, signal });
    if (signal !== null) return void cluster.fork();
    for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGKILL');
    process.exit(code === 0 ? 1 : code);
  });
} else {
  await startWorker();
}

async function startWorker(): Promise<void> {
  const workspace = path.join(fleetDir, 'workspace');
  await mkdir(workspace, { recursive: true });
  const { host } = await createNodeToolHost({
    root: workspace,
    stateDir: path.join(fleetDir, 'state'),
  });
  const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host });
  const context: ToolDispatchContext = {
    nodeId: 'fleet',
    grantedToolIds: new Set(['write_file', 'read_file']),
    config: {},
    toolPolicy: {},
    fsScope: 'sandboxed',
    gateApproved: false,
  };
  const runs = createToolRunObject({
    registry,
    // Outside the workspace: the model's tools can never reach the journal.
    journal: await createSqliteEffectJournal({ file: path.join(fleetDir, 'journal.sqlite') }),
    context: () => context,
    // A real model plugs in HERE: translate `messages` to your provider's format (tool results
    // stay branded untrusted until its adapter places them), offer
    // `toProviderTools(tools.map((id) => registry.get(id)!), 'anthropic')`, and return
    // `{ text, toolCalls: [{ id, name, args }] }`. The call runs as a durable step: a replay
    // reads the journaled answer instead of asking (and paying) again.
    model: async (request) => {
      emit('turn', { runId: request.runId, turn: request.turn });
      return scriptedTurn(request);
    },
    approvals: {
      // A durable step: never re-sent once journaled. A worker killed between sending and
      // journaling sends it again on recovery, with the same approvalId (answering twice is harmless).
      notify: (notice) => emit('approval', { notice }),
      timeoutMs: Number(setting('APPROVAL_TIMEOUT_MS', String(10 * 60_000))),
    },
  });
  // In production add `.withIdentityV1(publicKey)`: only your Restate server may call the workers.
  await restate.endpoint().bind(runs).listen(port);
  emit('listening', { port });
}

// The default model, so the fleet runs with no API key: write a report (governed: it waits for
// an approval), read it back (a read: no approval), then answer.
function scriptedTurn({ runId, turn }: ToolRunModelRequest): ToolRunModelTurn {
  const file = `reports/${runId}.md`;
  if (turn === 0) {
    const args = { path: file, content: `# ${runId}\n\nwritten by the fleet\n`, createDirs: true };
    return { toolCalls: [{ id: 'write-report', name: 'write_file', args }] };
  }
  if (turn === 1)
    return { toolCalls: [{ id: 'read-report', name: 'read_file', args: { path: file } }] };
  return { text: `wrote and re-read ${file}` };
}
