import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  countAttempt as count,
  raceWithSwapper,
  type SwapMode,
  type Tally,
} from './test-support/race-with-swapper.js';
import { createSandbox, snapshotTree } from './test-support/sandbox.js';
import type { Sandbox } from './test-support/sandbox.js';

// Each race stays well under the test timeout on a shared two-core machine.
const RACE_MS = 1500;
const WORKERS = 3;
const SECRET = 'OUTSIDE-SECRET';

describe('move_file and create_directory under a swapping attacker', () => {
  let box: Sandbox | undefined;
  afterEach(async () => {
    await box?.close();
    box = undefined;
  });

  it('never moves into, out of or creates outside when a parent directory is swapped for a symlink', async () => {
    // Each worker's file, and a decoy of the same name outside for a followed symlink to take.
    box = await createSandbox({}, async ({ root, outside }) => {
      for (let worker = 0; worker < WORKERS; worker += 1) {
        await writeFile(path.join(root, `s-${worker}.txt`), 'S');
        await writeFile(path.join(outside, `s-${worker}.txt`), SECRET);
      }
    });
    const { root, outside, fs } = box;
    const before = await snapshotTree(outside);
    const tally: Tally = { ok: 0, refused: 0, leaked: 0 };
    const inD = Array.from({ length: WORKERS }, () => false);

    const swaps = await race('parent', root, outside, async (worker, round) => {
      const name = `s-${worker}.txt`;
      await count(tally, async () => {
        const moved = inD[worker]
          ? await fs.moveFile({ source: `d/${name}`, destination: name })
          : await fs.moveFile({ source: name, destination: `d/${name}` });
        inD[worker] = !inD[worker];
        return !/^(d|\.d-real)\//.test(inD[worker] ? moved.destination : moved.source);
      });
      await count(tally, async () => {
        const made = await fs.makeDirectory({ path: `d/sub-${worker}-${round}` });
        return !/^(d|\.d-real)\//.test(made.path);
      });
    });
    const leakedContent = await everyMovedFile(root, (text) => text.includes('OUTSIDE'));

    expect(await snapshotTree(outside)).toEqual(before);
    expect(leakedContent).toBe(false);
    expect(tally.leaked).toBe(0);
    expect(tally.ok).toBeGreaterThan(0);
    expect(tally.refused).toBeGreaterThan(0);
    expect(swaps).toBeGreaterThan(10);
  }, 20_000);

  it('never lands outside when an in-root directory alias is re-pointed out of the root', async () => {
    box = await createSandbox({}, async ({ root }) => {
      for (let worker = 0; worker < WORKERS; worker += 1)
        await writeFile(path.join(root, `s-${worker}.txt`), 'S');
    });
    const { root, outside, fs } = box;
    const before = await snapshotTree(outside);
    const tally: Tally = { ok: 0, refused: 0, leaked: 0 };

    const swaps = await race('alias', root, outside, async (worker, round) => {
      const name = `s-${worker}.txt`;
      await count(tally, async () => {
        const moved = await fs.moveFile({ source: name, destination: `alias/${name}` });
        await fs.moveFile({ source: moved.destination, destination: name });
        return !moved.destination.startsWith('d/');
      });
      await count(tally, async () => {
        const made = await fs.makeDirectory({ path: `alias/new-${worker}-${round}/deeper` });
        return !made.path.startsWith('d/');
      });
    });

    expect(await snapshotTree(outside)).toEqual(before);
    expect(tally.leaked).toBe(0);
    expect(tally.ok).toBeGreaterThan(0);
    expect(tally.refused).toBeGreaterThan(0);
    expect(swaps).toBeGreaterThan(10);
  }, 20_000);
});

// The race of this file: WORKERS loops of `round` against the swapper; resolves its swaps.
function race(
  mode: SwapMode,
  root: string,
  outside: string,
  round: (worker: number, round: number) => Promise<void>,
): Promise<number> {
  return raceWithSwapper({ mode, root, outside }, { workers: WORKERS, durationMs: RACE_MS }, round);
}

// Whether any workers' file, wherever the race left it, holds text `test` picks out.
async function everyMovedFile(root: string, test: (text: string) => boolean): Promise<boolean> {
  for (const directory of ['', 'd', '.d-real']) {
    for (let worker = 0; worker < WORKERS; worker += 1) {
      const text = await readFile(path.join(root, directory, `s-${worker}.txt`), 'utf8').catch(
        () => '',
      );
      if (test(text)) return true;
    }
  }
  return false;
}
