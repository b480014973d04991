// The whole fleet in one command: a Restate server, a node:cluster of workers behind ONE
// registered endpoint, N runs started from a client, their approvals answered, their outcomes
// printed; then every process it started is stopped by PID and its temp directory removed.
//
//   npx tsx --conditions source examples/restate-fleet/run-all.ts [--runs 4] [--workers 2] [--ask] [--kill-worker]
//
// --ask prompts for each approval instead of approving it. --kill-worker SIGKILLs the worker
// that asked for the first approval before answering it: its runs finish on the others.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createInterface as createPrompt } from 'node:readline/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { connect } from '@restatedev/restate-sdk-clients';
import { resolveApproval, type ApprovalNotice } from '@toolhost/restate';

import { freePort, startRestateServer, stopByPid } from './restate-server.js';
import { startRuns } from './start-runs.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '4' },
    workers: { type: 'string', default: '2' },
    ask: { type: 'boolean', default: false },
    'kill-worker': { type: 'boolean', default: false },
  },
});
const runCount = Number(values.runs);
const workerCount = Number(values.workers);
const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));
const TSX = createRequire(import.meta.url).resolve('tsx/esm');

const base = await mkdtemp(path.join(tmpdir(), 'toolhost-fleet-example-'));
await mkdir(path.join(base, 'restate'));
const stops: (() => Promise<void>)[] = [];
let stopping: Promise<void> | undefined;
// Ctrl-C (or a SIGTERM) still stops everything this script started.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void shutDown().finally(() => process.exit(130)));
}
try {
  const server = await startRestateServer(path.join(base, 'restate'));
  stops.unshift(async () => {
    await server.stop();
    console.log(`stopped restate-server (pid ${server.pid})`);
  });
  console.log(`restate-server pid ${server.pid}: ingress ${server.ingressUrl}`);

  const port = await freePort();
  // Its own process group, so one signal to -pid reaches the primary and every cluster worker.
  const fleet = spawn(process.execPath, ['--conditions=source', '--import', TSX, WORKER], {
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      FLEET_DIR: base,
      PORT: String(port),
      WORKERS: String(workerCount),
      RESTATE_LOGGING: 'WARN',
    },
  });
  stops.unshift(async () => {
    await stopByPid(fleet, true);
    console.log(`stopped the workers (process group ${fleet.pid ?? -1})`);
  });
  const ingress = connect({ url: server.ingressUrl });
  const servedBy = new Map<number, number>();
  const listening: number[] = [];
  let killed = false;
  let ready: () => void = () => undefined;
  const allListening = new Promise<void>((resolve, reject) => {
    ready = resolve;
    fleet.once('exit', () => reject(new Error('the workers exited before listening')));
  });
  const answers = answerer(values.ask);
  stops.unshift(async () => answers.close());
  createInterface({ input: fleet.stdout }).on('line', (line) => {
    const event = JSON.parse(line) as { event: string; pid: number } & Record<string, unknown>;
    if (event.event === 'listening' && listening.push(event.pid) === workerCount) ready();
    if (event.event === 'turn') {
      servedBy.set(event.pid, (servedBy.get(event.pid) ?? 0) + 1);
      console.log(
        `  [worker ${event.pid}] ${String(event['runId'])} model turn ${String(event['turn'])}`,
      );
    }
    if (event.event === 'worker_exit') {
      console.log(
        `  worker ${String(event['worker'])} died (${String(event['signal'])}); forking a new one`,
      );
    }
    if (event.event === 'approval') {
      if (values['kill-worker'] && workerCount > 1 && !killed) {
        killed = true;
        console.log(`  SIGKILL worker ${event.pid}, which holds a run waiting for approval`);
        process.kill(event.pid, 'SIGKILL');
      }
      void answers.answer(ingress, event['notice'] as ApprovalNotice);
    }
  });
  await allListening;
  const deployment = `http://127.0.0.1:${port}`;
  await server.register(deployment);
  console.log(
    `${workerCount} workers [${listening.join(', ')}] behind one deployment ${deployment}`,
  );

  const runs = await startRuns(
    ingress,
    Array.from({ length: runCount }, (_, index) => `run-${index}`),
  );
  for (const run of runs) console.log(`started ${run.runId} (${run.invocationId})`);
  for (const run of runs) {
    const outcome = await run.outcome.then(
      (output) => `ok: "${output.text}" (${output.turns} turns, ${output.toolCalls} tool calls)`,
      (error: unknown) => `failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    console.log(`${run.runId} ${outcome}`);
  }
  const reports = await readdir(path.join(base, 'workspace', 'reports')).catch(() => []);
  console.log(`workspace/reports: ${reports.sort().join(', ')}`);
  const served = [...servedBy].map(([pid, turns]) => `${pid}: ${turns}`).join(', ');
  console.log(`model turns per worker: ${served}`);
} finally {
  await shutDown();
}

// Once, whether the runs ended or a signal came first (then both ask for it).
function shutDown(): Promise<void> {
  stopping ??= (async () => {
    for (const stop of stops) await stop().catch(() => undefined);
    await rm(base, { recursive: true, force: true });
    console.log(`removed ${base}`);
  })();
  return stopping;
}

// Approves every notice, or (with --ask) puts each to the person at the terminal in turn.
function answerer(ask: boolean) {
  const prompt = ask ? createPrompt({ input: process.stdin, output: process.stdout }) : undefined;
  // At a prompt, Ctrl-C reaches readline, not the process: pass it on so shutDown runs.
  prompt?.on('SIGINT', () => process.kill(process.pid, 'SIGINT'));
  let queue = Promise.resolve();
  const answer = (ingress: ReturnType<typeof connect>, notice: ApprovalNotice): Promise<void> => {
    queue = queue.then(async () => {
      const what = `${notice.runId}: ${notice.toolId} (${notice.action}) ${JSON.stringify(notice.preview)}`;
      const yes =
        prompt === undefined || /^y/i.test(await prompt.question(`approve ${what}? [y/N] `));
      await resolveApproval(
        ingress,
        notice.approvalId,
        yes ? { outcome: 'approve' } : { outcome: 'reject', reason: 'rejected at the terminal' },
      );
      console.log(
        `approval ${notice.approvalId.slice(0, 13)}… ${yes ? 'granted' : 'refused'}: ${what}`,
      );
    });
    // One failed answer (the server gone) is reported; it must not stop the answers after it.
    queue = queue.catch((error: unknown) => {
      console.error(`answering ${notice.approvalId} failed: ${String(error)}`);
    });
    return queue;
  };
  return { answer, close: () => prompt?.close() };
}
