import { readFile, realpath, writeFile } from 'node:fs/promises';
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

// The jail races this long and the naive control half as long: each test stays under 5 s.
const RACE_MS = 1800;
const CONTROL_MS = 800;
const WORKERS = 4;

describe('the jail under a swapping attacker', () => {
  let box: Sandbox | undefined;
  afterEach(async () => {
    await box?.close();
    box = undefined;
  });

  it('never reads, lists or writes outside when the final component is swapped for a symlink', async () => {
    box = await createSandbox({}, async ({ root, outside }) => {
      await writeFile(path.join(outside, 't.txt'), 'OUTSIDE-SECRET');
      await writeFile(path.join(root, 't.txt'), 'INSIDE');
    });
    const { root, outside } = box;
    const fs = box.fs;
    const before = await snapshotTree(outside);
    const tally: Tally = { ok: 0, refused: 0, leaked: 0 };

    const swaps = await race('final', root, outside, async (worker, round) => {
      await count(tally, async () => {
        const read = await fs.readFile({ path: 't.txt' });
        return read.content.includes('OUTSIDE');
      });
      await count(tally, async () => {
        const read = await fs.readFile({ path: '*.txt', glob: true });
        return read.content.includes('OUTSIDE');
      });
      await count(tally, async () => {
        await fs.writeFile({
          path: 't.txt',
          content: `W${worker}-${round}`,
          append: round % 2 === 0,
        });
        return false;
      });
    });
    const naive = await naiveLeaks('final', root, outside, 't.txt');

    expect(await snapshotTree(outside)).toEqual(before);
    expect(tally.leaked).toBe(0);
    expect(tally.ok).toBeGreaterThan(0);
    expect(tally.refused).toBeGreaterThan(0);
    expect(swaps).toBeGreaterThan(10);
    report('final component', tally, swaps, naive);
  });

  it('never reads, lists or writes outside when a parent directory is swapped for a symlink', async () => {
    box = await createSandbox({}, async ({ outside }) => {
      await writeFile(path.join(outside, 't.txt'), 'OUTSIDE-SECRET');
      await writeFile(path.join(outside, 'outside-only.txt'), 'OUTSIDE-SECRET');
    });
    const { root, outside } = box;
    const fs = box.fs;
    const before = await snapshotTree(outside);
    const tally: Tally = { ok: 0, refused: 0, leaked: 0 };

    const swaps = await race('parent', root, outside, async (worker, round) => {
      await count(tally, async () => {
        const read = await fs.readFile({ path: 'd/t.txt' });
        return read.content.includes('OUTSIDE');
      });
      await count(tally, async () => {
        const listing = await fs.listDirectory({ path: 'd', recursive: true });
        return listing.entries.some((entry) => entry.name.includes('outside-only'));
      });
      await count(tally, async () => {
        await fs.writeFile({ path: `d/w-${worker}-${round}.txt`, content: 'W' });
        return false;
      });
      await count(tally, async () => {
        await fs.writeFile({
          path: `d/sub-${worker}-${round}/x.txt`,
          content: 'W',
          createDirs: true,
        });
        return false;
      });
      await count(tally, async () => {
        await fs.writeFile({ path: 'd/t.txt', content: 'A', append: true });
        return false;
      });
    });
    const naive = await naiveLeaks('parent', root, outside, 'd/t.txt');

    expect(await snapshotTree(outside)).toEqual(before);
    expect(tally.leaked).toBe(0);
    expect(tally.ok).toBeGreaterThan(0);
    expect(tally.refused).toBeGreaterThan(0);
    expect(swaps).toBeGreaterThan(10);
    report('parent directory', tally, swaps, naive);
  });

  it('never writes outside when an in-root directory alias is re-pointed out of the root', async () => {
    box = await createSandbox();
    const { root, outside } = box;
    const fs = box.fs;
    const before = await snapshotTree(outside);
    const tally: Tally = { ok: 0, refused: 0, leaked: 0 };

    const swaps = await race('alias', root, outside, async (worker, round) => {
      await count(tally, async () => {
        const written = await fs.writeFile({
          path: `alias/w-${worker}-${round}.txt`,
          content: 'W',
        });
        return !written.path.startsWith('d/');
      });
      await count(tally, async () => {
        const written = await fs.writeFile({
          path: `alias/sub-${worker}-${round}/x.txt`,
          content: 'W',
          createDirs: true,
        });
        return !written.path.startsWith('d/');
      });
    });

    expect(await snapshotTree(outside)).toEqual(before);
    expect(tally.leaked).toBe(0);
    expect(tally.ok).toBeGreaterThan(0);
    expect(tally.refused).toBeGreaterThan(0);
    expect(swaps).toBeGreaterThan(10);
    report('directory alias', tally, swaps);
  });
});

// The race of this file: WORKERS loops of `round` against the swapper; resolves its swaps.
function race(
  mode: SwapMode,
  root: string,
  outside: string,
  round: (worker: number, round: number) => Promise<void>,
  durationMs = RACE_MS,
): Promise<number> {
  return raceWithSwapper({ mode, root, outside }, { workers: WORKERS, durationMs }, round);
}

// The control: realpath, check containment, then open by path — the implementation the issue
// warns about. Run against the same swapper so the report shows the race is real.
async function naiveLeaks(
  mode: 'final' | 'parent',
  root: string,
  outside: string,
  file: string,
): Promise<number> {
  let leaks = 0;
  await race(
    mode,
    root,
    outside,
    async () => {
      try {
        const real = await realpath(path.join(root, file));
        if (!real.startsWith(root + path.sep)) return;
        if ((await readFile(real, 'utf8')).includes('OUTSIDE')) leaks += 1;
      } catch {
        // Refused or mid-swap.
      }
    },
    CONTROL_MS,
  );
  return leaks;
}

function report(label: string, tally: Tally, swaps: number, naive?: number): void {
  console.log(
    `race (${label}): ${swaps} swaps; jail ok ${tally.ok}, refused ${tally.refused}, leaked ${tally.leaked}` +
      (naive === undefined ? '' : `; naive realpath-then-open leaked ${naive}`),
  );
}
