import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';

import * as restate from '@restatedev/restate-sdk';
import { BUILTIN_TOOLS, createToolRegistry } from '@toolhost/core';
import type { LoopToolCall } from '@toolhost/core/loop';
import { createNodeToolHost } from '@toolhost/node';
import { createPostgresEffectJournal, createSqliteEffectJournal } from '@toolhost/node/journal';

import { createToolRunObject } from '../tool-run-object.js';
import type { ToolRunModelRequest, ToolRunModelTurn } from '../model-turn.js';

// A Restate worker for the tests and the bench: a Node host over WORKSPACE, the shared SQLite
// journal JOURNAL (or Postgres at PG_URL), and a scripted model (the prompt is JSON `{ turns: [[call, …], …] }`). With
// WORKERS=n it forks n processes sharing PORT through node:cluster: one endpoint, n workers.
// Each worker says `{ listening, pid }` on stdout; notices and model turns go to LOG as JSON lines.

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`run-worker: ${name} is required`);
  return value;
};
const port = Number(env('PORT'));
const workers = Number(process.env['WORKERS'] ?? '1');
const log = env('LOG');

if (workers > 1 && cluster.isPrimary) {
  for (let index = 0; index < workers; index += 1) cluster.fork();
  // No re-fork: a killed worker stays dead, so the test knows its runs moved to the others.
} else {
  await startWorker();
}

async function startWorker(): Promise<void> {
  const { host } = await createNodeToolHost({
    root: env('WORKSPACE'),
    stateDir: env('STATE'),
    process: {},
  });
  // PG_URL: the shared Postgres journal of workers on several machines; else the SQLite file.
  const postgres = process.env['PG_URL'];
  const journal =
    postgres === undefined
      ? await createSqliteEffectJournal({ file: env('JOURNAL') })
      : await createPostgresEffectJournal({ connectionString: postgres, key: env('PG_KEY') });
  const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host });
  const approvalTimeoutMs = process.env['APPROVAL_TIMEOUT_MS'];
  const record = (entry: object): void =>
    appendFileSync(log, `${JSON.stringify({ ...entry, pid: process.pid })}\n`);
  const object = createToolRunObject({
    registry,
    journal,
    context: () => ({
      nodeId: 'fleet',
      grantedToolIds: new Set(['read_file', 'write_file', 'run_command']),
      config: {},
      toolPolicy: {
        allowedCommands: (process.env['ALLOWED'] ?? '').split('|').filter((entry) => entry !== ''),
        processSandbox: 'required',
      },
      fsScope: 'sandboxed',
      gateApproved: false,
    }),
    model: async (request) => {
      record({ event: 'model', runId: request.runId, turn: request.turn });
      return scriptedTurn(request);
    },
    ...(process.env['APPROVALS'] === '1'
      ? {
          approvals: {
            notify: (notice) => record({ event: 'notice', notice }),
            ...(approvalTimeoutMs === undefined ? {} : { timeoutMs: Number(approvalTimeoutMs) }),
          },
        }
      : {}),
  });
  await restate.serve({ services: [object], port });
  process.stdout.write(`${JSON.stringify({ listening: port, pid: process.pid })}\n`);
}

// Turn i answers with the script's i-th calls; past the script, the final text. With
// RANDOM_IDS=1 every answer gives its calls fresh ids, as a real model does when asked again.
function scriptedTurn(request: ToolRunModelRequest): ToolRunModelTurn {
  const user = request.messages.find((message) => message.role === 'user');
  const first = user?.role === 'user' ? user.content[0] : undefined;
  const script = JSON.parse(first?.type === 'text' ? first.text : '{}') as {
    readonly turns?: readonly (readonly LoopToolCall[])[];
  };
  const calls = script.turns?.[request.turn];
  if (calls === undefined) return { text: `done after ${request.turn} turns` };
  if (process.env['RANDOM_IDS'] !== '1') return { toolCalls: calls };
  return { toolCalls: calls.map((call) => ({ ...call, id: `${call.id}-${randomUUID()}` })) };
}
