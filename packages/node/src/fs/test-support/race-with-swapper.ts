import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SWAPPER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'swapper.mjs');

/** What a swapping attacker's swap modes are (see `swapper.mjs`). */
export type SwapMode = 'final' | 'parent' | 'alias';

/** How the attempts of a race came out: refused, answered safely, or leaked. */
export interface Tally {
  ok: number;
  refused: number;
  leaked: number;
}

/** One empty tally. */
export function newTally(): Tally {
  return { ok: 0, refused: 0, leaked: 0 };
}

/**
 * Runs `round` in `workers` loops for `durationMs` while the swapper child swaps `root`'s entries
 * for links to `outside`; resolves the number of swaps it made (a race with none proves nothing).
 */
export async function raceWithSwapper(
  swap: { readonly mode: SwapMode; readonly root: string; readonly outside: string },
  pace: { readonly workers: number; readonly durationMs: number },
  round: (worker: number, round: number) => Promise<void>,
): Promise<number> {
  const child = spawn(process.execPath, [SWAPPER, swap.mode, swap.root, swap.outside], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.setEncoding('utf8');
  await new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('ready')) resolve();
    });
  });
  const deadline = Date.now() + pace.durationMs;
  await Promise.all(
    Array.from({ length: pace.workers }, async (_unused, worker) => {
      for (let index = 0; Date.now() < deadline; index += 1) await round(worker, index);
    }),
  );
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  child.kill('SIGTERM');
  await exited;
  return Number(/swaps (\d+)/.exec(output)?.[1] ?? 0);
}

/** Counts one attempt: a throw is a refusal, `true` a leak, `false` a safe answer. */
export async function countAttempt(tally: Tally, attempt: () => Promise<boolean>): Promise<void> {
  try {
    if (await attempt()) tally.leaked += 1;
    else tally.ok += 1;
  } catch {
    tally.refused += 1;
  }
}
