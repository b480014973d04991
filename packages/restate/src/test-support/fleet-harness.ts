import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { freePort, startRestateServer, type RestateServer } from './start-restate-server.js';

const WORKER = fileURLToPath(new URL('./run-worker.ts', import.meta.url));
const TSX = createRequire(import.meta.url).resolve('tsx/esm');

/** One test's world: a Restate server, a workspace, a shared journal, a log, worker processes. */
export interface Fleet {
  readonly server: RestateServer;
  readonly base: string;
  readonly workspace: string;
  readonly port: number;
  /** The shared SQLite journal file the workers use (unless a worker is given Postgres). */
  readonly journalFile: string;
  /** Starts a worker process (or a node:cluster of `workers`) on the fleet's one port. */
  startWorker(options?: WorkerOptions): Promise<WorkerProcess>;
  /** Starts a run (a `run` invocation of the object keyed `runId`); returns its invocation id. */
  startRun(runId: string, turns: readonly (readonly object[])[]): Promise<string>;
  /** Waits for an invocation's outcome: `{ ok, status, body }`. */
  outcome(invocationId: string): Promise<RunOutcome>;
  cancel(invocationId: string): Promise<void>;
  /** The worker log's JSON lines. */
  log(): Promise<readonly LogEntry[]>;
  /** Polls the log until `pick` finds an entry. */
  waitForLog(pick: (entry: LogEntry) => boolean, timeoutMs?: number): Promise<LogEntry>;
  readWorkspace(name: string): Promise<string>;
  close(): Promise<void>;
}

export interface WorkerOptions {
  readonly workers?: number;
  readonly approvals?: boolean;
  readonly approvalTimeoutMs?: number;
  readonly allowedCommands?: readonly string[];
  /** The shared Postgres journal instead of the SQLite file (workers on several machines). */
  readonly postgres?: { readonly connectionString: string; readonly key: string };
  /** This worker's own state directory name (a machine of its own); default `state`. */
  readonly stateName?: string;
  /** The scripted model answers every call with fresh call ids, as a real model does. */
  readonly randomCallIds?: boolean;
}

export interface WorkerProcess {
  readonly pid: number;
  /** The PIDs that said they listen (one per cluster worker). */
  readonly workerPids: readonly number[];
  /** SIGKILL to the whole process group (the worker and every sandboxed child it started). */
  kill(): Promise<void>;
  /** SIGKILL one cluster worker by its PID. */
  killWorker(pid: number): void;
}

export interface RunOutcome {
  readonly ok: boolean;
  readonly status: number;
  readonly body: Record<string, unknown>;
}

export type LogEntry = Record<string, unknown> & { readonly event: string; readonly pid: number };

export async function startFleet(): Promise<Fleet> {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-fleet-')));
  const workspace = path.join(base, 'workspace');
  await mkdir(workspace);
  const logFile = path.join(base, 'worker.log');
  await writeFile(logFile, '');
  const server = await startRestateServer();
  const port = await freePort();
  const processes: WorkerProcess[] = [];
  let registered = false;
  const ingress = (route: string, init?: RequestInit): Promise<Response> =>
    fetch(`${server.ingressUrl}${route}`, init);
  const log = async (): Promise<readonly LogEntry[]> =>
    (await readFile(logFile, 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as LogEntry);
  return {
    server,
    base,
    workspace,
    port,
    journalFile: path.join(base, 'journal.db'),
    async startWorker(options = {}) {
      const worker = await spawnWorker({ base, workspace, logFile, port, ...options });
      processes.push(worker);
      if (!registered) {
        await server.register(`http://127.0.0.1:${port}`);
        registered = true;
      }
      return worker;
    },
    async startRun(runId, turns) {
      const response = await ingress(`/toolhost-run/${encodeURIComponent(runId)}/run/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: JSON.stringify({ turns }) }),
      });
      const body = (await response.json()) as { readonly invocationId?: string };
      if (!response.ok || body.invocationId === undefined) {
        throw new Error(`starting ${runId} failed: ${response.status}`);
      }
      return body.invocationId;
    },
    async outcome(invocationId) {
      const response = await ingress(`/restate/invocation/${invocationId}/attach`);
      const text = await response.text();
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = { text };
      }
      return { ok: response.ok, status: response.status, body };
    },
    async cancel(invocationId) {
      const response = await fetch(`${server.adminUrl}/invocations/${invocationId}/cancel`, {
        method: 'PATCH',
      });
      if (!response.ok) throw new Error(`cancel failed: ${response.status}`);
    },
    log,
    async waitForLog(pick, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = (await log()).find(pick);
        if (found !== undefined) return found;
        if (Date.now() > deadline) throw new Error('timed out waiting for the worker log');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    readWorkspace: (name) => readFile(path.join(workspace, name), 'utf8').catch(() => ''),
    async close() {
      for (const worker of processes) await worker.kill();
      await server.stop();
      await rm(base, { recursive: true, force: true });
    },
  };
}

async function spawnWorker(
  options: WorkerOptions & {
    readonly base: string;
    readonly workspace: string;
    readonly logFile: string;
    readonly port: number;
  },
): Promise<WorkerProcess> {
  const workers = options.workers ?? 1;
  const child = spawn(process.execPath, ['--conditions=source', '--import', TSX, WORKER], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: options.base,
      RESTATE_LOGGING: 'WARN',
      PORT: String(options.port),
      WORKERS: String(workers),
      LOG: options.logFile,
      WORKSPACE: options.workspace,
      STATE: path.join(options.base, options.stateName ?? 'state'),
      JOURNAL: path.join(options.base, 'journal.db'),
      APPROVALS: options.approvals === true ? '1' : '0',
      ALLOWED: (options.allowedCommands ?? []).join('|'),
      RANDOM_IDS: options.randomCallIds === true ? '1' : '0',
      ...(options.postgres === undefined
        ? {}
        : { PG_URL: options.postgres.connectionString, PG_KEY: options.postgres.key }),
      ...(options.approvalTimeoutMs === undefined
        ? {}
        : { APPROVAL_TIMEOUT_MS: String(options.approvalTimeoutMs) }),
    },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-8_000);
  });
  const workerPids = await readListening(child, workers, () => stderr);
  return {
    pid: child.pid ?? -1,
    workerPids,
    kill: () => killGroup(child),
    killWorker: (pid) => process.kill(pid, 'SIGKILL'),
  };
}

// Reads `{ listening, pid }` lines until `count` workers said so; stdout keeps draining after,
// so the SDK's own log lines can never fill the pipe and stall a worker.
async function readListening(
  child: ChildProcess,
  count: number,
  stderr: () => string,
): Promise<number[]> {
  const pids: number[] = [];
  let buffered = '';
  return new Promise<number[]>((resolve, reject) => {
    const timer = setTimeout(() => {
      void killGroup(child);
      reject(new Error(`the worker did not listen in time: ${stderr()}`));
    }, 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('{"listening"')) continue;
        pids.push((JSON.parse(line) as { readonly pid: number }).pid);
        if (pids.length === count) {
          clearTimeout(timer);
          resolve(pids);
        }
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`the worker exited before listening: ${stderr()}`));
    });
  });
}

async function killGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    return;
  }
  await exited;
}
