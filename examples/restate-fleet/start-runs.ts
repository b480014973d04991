// Starts N agent runs from a client: one `run` invocation of the `toolhost-run` virtual object
// per run id, sent (not awaited) through the ingress, then waits for each outcome.
//
//   npx tsx --conditions source examples/restate-fleet/start-runs.ts [count] [ingressUrl]
import { pathToFileURL } from 'node:url';

import { connect, rpc, type Ingress } from '@restatedev/restate-sdk-clients';
import type { createToolRunObject, ToolRunOutput } from '@toolhost/restate';

/** The worker's object, by name only: the client needs its handlers' types, not its code. */
const RUNS: ReturnType<typeof createToolRunObject> = { name: 'toolhost-run' };

/** A run the client started: its key and Restate's invocation id. */
export interface StartedRun {
  readonly runId: string;
  readonly invocationId: string;
  /** Settles with the run's output, or rejects with its terminal error. */
  readonly outcome: Promise<ToolRunOutput>;
}

/** Sends one `run` per id; every run is its own virtual object, so they proceed in parallel. */
export async function startRuns(
  ingress: Ingress,
  runIds: readonly string[],
): Promise<StartedRun[]> {
  return Promise.all(
    runIds.map(async (runId) => {
      // The run id as idempotency key: sending a run twice starts it once, and Restate keeps
      // its result for `ingress.result` to attach to.
      const send = await ingress
        .objectSendClient(RUNS, runId)
        .run(
          { prompt: `Write the report for ${runId}, then check it.` },
          rpc.sendOpts({ idempotencyKey: runId }),
        );
      const outcome = ingress.result(send);
      // Awaited later, in order: a run that fails first must not be an unhandled rejection.
      outcome.catch(() => undefined);
      return { runId, invocationId: send.invocationId, outcome };
    }),
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const count = Number(process.argv[2] ?? '3');
  const ingress = connect({ url: process.argv[3] ?? 'http://127.0.0.1:8080' });
  const stamp = Date.now().toString(36);
  const runs = await startRuns(
    ingress,
    Array.from({ length: count }, (_, index) => `run-${stamp}-${index}`),
  );
  for (const run of runs) console.log(`started ${run.runId} (${run.invocationId})`);
  for (const run of runs) {
    const outcome = await run.outcome.then(
      (output) => `ok: ${output.text} (${output.turns} turns, ${output.toolCalls} tool calls)`,
      (error: unknown) => `failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    console.log(`${run.runId} ${outcome}`);
  }
}
