import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FileSearchResult } from '@toolhost/core/host';
import { searchReaders, setSearchReader } from './search-reader.js';
import {
  countAttempt,
  raceWithSwapper,
  type SwapMode,
  type Tally,
} from './test-support/race-with-swapper.js';
import { createSandbox } from './test-support/sandbox.js';
import type { Sandbox } from './test-support/sandbox.js';

// Each race stays well under the test timeout on a shared two-core machine.
const RACE_MS = 1500;
const WORKERS = 3;

// Every search runs through both readers: the fs-at addon's openat batches (where it is built)
// and Node's fs. They must give the same results and refuse the same things.
describe.each(await searchReaders())('with the %s reader', (reader) => {
  beforeAll(() => setSearchReader(reader));
  afterAll(() => setSearchReader('native'));

  describe('search_files under a swapping attacker', () => {
    let box: Sandbox | undefined;
    afterEach(async () => {
      await box?.close();
      box = undefined;
    });

    it('never matches outside text when a searched directory is swapped for a symlink', async () => {
      box = await createSandbox({}, async ({ outside }) => {
        await writeFile(path.join(outside, 't.txt'), 'OUTSIDE-SECRET');
        await writeFile(path.join(outside, 'outside-only.txt'), 'OUTSIDE-SECRET');
      });
      const { fs } = box;
      const tally: Tally = { ok: 0, refused: 0, leaked: 0 };

      const swaps = await race('parent', box.root, box.outside, async () => {
        await count(tally, () => fs.searchFiles({ pattern: 'SIDE' }));
        await count(tally, () => fs.searchFiles({ pattern: 'SIDE', path: 'd' }));
        await count(tally, () => fs.searchFiles({ pattern: 'S.*T', path: 'd', regex: true }));
      });

      expect(tally.leaked).toBe(0);
      expect(tally.ok).toBeGreaterThan(0);
      expect(tally.refused).toBeGreaterThan(0);
      expect(swaps).toBeGreaterThan(10);
    }, 20_000);

    it('never matches outside text when a searched file is swapped for a symlink', async () => {
      box = await createSandbox({}, async ({ outside }) => {
        await writeFile(path.join(outside, 't.txt'), 'OUTSIDE-SECRET');
      });
      const { fs } = box;
      const tally: Tally = { ok: 0, refused: 0, leaked: 0 };

      const swaps = await race('final', box.root, box.outside, async () => {
        await count(tally, () => fs.searchFiles({ pattern: 'SIDE' }));
        await count(tally, () => fs.searchFiles({ pattern: 'SIDE', path: 't.txt' }));
      });

      expect(tally.leaked).toBe(0);
      expect(tally.ok).toBeGreaterThan(0);
      expect(swaps).toBeGreaterThan(10);
    }, 20_000);
  });
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

// A leak is a match that shows the outside file's text.
function count(tally: Tally, attempt: () => Promise<FileSearchResult>): Promise<void> {
  return countAttempt(tally, async () =>
    (await attempt()).matches.some((match) => match.text.includes('OUTSIDE')),
  );
}
