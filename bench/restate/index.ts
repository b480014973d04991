import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttp2Server, type Http2Server } from 'node:http2';
import { tmpdir } from 'node:os';
import path from 'node:path';

import * as restate from '@restatedev/restate-sdk';
import { connect } from '@restatedev/restate-sdk-clients';
import {
  BUILTIN_TOOLS,
  createCorrectionBudget,
  createToolRegistry,
  runToolCalls,
  type ToolDispatchContext,
} from '@toolhost/core';
import type { EffectJournal } from '@toolhost/core/journal';
import { createNodeToolHost } from '@toolhost/node';
import { createSqliteEffectJournal } from '@toolhost/node/journal';

import type { BenchRow } from '../bench-row.js';
import { sampleInterleaved } from '../sample-interleaved.js';
import {
  freePort,
  startRestateServer,
} from '../../packages/restate/src/test-support/start-restate-server.js';
import { benchServices, writeCall, type RunScript } from './bench-endpoint.js';
import { CALLS, restateRows } from './restate-rows.js';

// What Restate adds to a journaled dispatch, in one interleaved run: a real Restate server (its
// own process, stopped by PID), the worker endpoint in THIS process (so both sides share one
// Node host, one SQLite journal, one disk), every subject invoked through the ingress.

const ITERATIONS = 40;

export async function run(): Promise<BenchRow[]> {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-bench-restate-')));
  const cleanup: (() => Promise<void>)[] = [() => rm(base, { recursive: true, force: true })];
  const onExit = (step: () => Promise<void>): void => void cleanup.unshift(step);
  try {
    let journal: EffectJournal & { close(): Promise<void> };
    try {
      journal = await createSqliteEffectJournal({ file: path.join(base, 'journal.db') });
    } catch (error) {
      // An optional dependency: a machine without better-sqlite3 skips, as bench/journal does.
      process.stderr.write(`bench restate: skipped (${(error as Error).message})\n`);
      return [];
    }
    onExit(() => journal.close());
    const workspace = path.join(base, 'workspace');
    await mkdir(workspace);
    const handle = await createNodeToolHost({
      root: workspace,
      stateDir: path.join(base, 'state'),
    });
    onExit(() => handle.close());
    const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host: handle.host });
    const context: ToolDispatchContext = {
      nodeId: 'bench',
      grantedToolIds: new Set(['write_file']),
      config: {},
      toolPolicy: {},
      fsScope: 'sandboxed',
      gateApproved: false,
    };

    const { steps, runs } = benchServices({ registry, journal, context });
    const endpoint = createHttp2Server(
      restate.endpoint().bind(steps).bind(runs).setLogger(warningsOnly).http2Handler(),
    );
    const endpointPort = await listen(endpoint);
    onExit(() => closeServer(endpoint));
    const restateDir = path.join(base, 'restate');
    await mkdir(restateDir);
    // Stopped before the endpoint closes (cleanup runs newest first): its connections go with it.
    const server = await startRestateServer({ baseDir: restateDir });
    onExit(() => server.stop());
    await server.register(`http://127.0.0.1:${endpointPort}`);
    const bare = createHttpServer((_request, response) => response.end('0'));
    const barePort = await listen(bare);
    onExit(() => closeServer(bare));

    const ingress = connect({ url: server.ingressUrl });
    const stepClient = ingress.serviceClient(steps);
    let sequence = 0;
    const next = (): number => (sequence += 1);
    const inProcess = (runId: string): ToolDispatchContext => ({
      ...context,
      journal: { store: journal, runId },
    });
    const startRun = async (script: RunScript): Promise<void> => {
      const output = await ingress
        .objectClient(runs, `run-${next()}`)
        .run({ prompt: JSON.stringify(script) });
      if (output.toolCalls !== script.calls) throw new Error('bench restate: a run fell short');
    };
    const loop = async (perTurn: boolean): Promise<void> => {
      const id = next();
      const calls = Array.from({ length: CALLS }, (_, index) => writeCall(`loop-${id}-${index}`));
      const options = { registry, ctx: inProcess(`loop-${id}`), budget: createCorrectionBudget() };
      if (!perTurn) await runToolCalls(calls, options);
      else for (const call of calls) await runToolCalls([call], options);
    };

    const samples = await sampleInterleaved(
      {
        bare: {
          run: async () => void (await (await fetch(`http://127.0.0.1:${barePort}/`)).text()),
        },
        empty: { run: async () => void (await stepClient.empty()) },
        noopStep: { run: async () => void (await stepClient.noopStep()) },
        step: { run: async () => void (await stepClient.dispatch(`step-${next()}`)) },
        dispatch: {
          run: async () =>
            void (await registry.dispatch(writeCall(`in-${next()}`), inProcess('in'))),
        },
        run: { run: () => startRun({ calls: CALLS, perTurn: false }) },
        loop: { run: () => loop(false) },
        runPerTurn: { run: () => startRun({ calls: CALLS, perTurn: true }) },
        loopPerTurn: { run: () => loop(true) },
      },
      { iterations: ITERATIONS, warmup: 3 },
    );
    return restateRows(samples);
  } finally {
    for (const step of cleanup) await step().catch(() => undefined);
  }
}

// The SDK logs every invocation at INFO; the bench's table is its only output.
const warningsOnly: restate.LoggerTransport = (meta, message, ...rest) => {
  // The enum is a type only at runtime in 1.14.5 (not exported as a value): compare its strings.
  const level: string = meta.level;
  if (level === 'warn' || level === 'error') console.error(message, ...rest);
};

async function listen(server: Server | Http2Server): Promise<number> {
  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return port;
}

async function closeServer(server: Server | Http2Server): Promise<void> {
  // close() waits for open connections (fetch keeps one alive); end them first.
  if ('closeAllConnections' in server) server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
