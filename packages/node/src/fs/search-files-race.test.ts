import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FileSearchResult } from '@toolhost/core';
import { searchReaders, setSearchReader } from './search-reader.js';
import { createSandbox } from './test-support/sandbox.js';
import type { Sandbox } from './test-support/sandbox.js';

// Each race stays well under the test timeout on a shared two-core machine.
const RACE_MS = 1500;
const WORKERS = 3;
const swapper = path.join(path.dirname(fileURLToPath(import.meta.url)), 'test-support/swapper.mjs');

interface Tally {
  ok: number;
  refused: number;
  leaked: number;
}

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

// Runs `round` in WORKERS loops while the swapper child runs; resolves the swap count.
async function race(
  mode: 'final' | 'parent',
  root: string,
  outside: string,
  round: () => Promise<void>,
): Promise<number> {
  const child = spawn(process.execPath, [swapper, mode, root, outside], {
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
  const deadline = Date.now() + RACE_MS;
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (Date.now() < deadline) await round();
    }),
  );
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  child.kill('SIGTERM');
  await exited;
  return Number(/swaps (\d+)/.exec(output)?.[1] ?? 0);
}

async function count(tally: Tally, attempt: () => Promise<FileSearchResult>): Promise<void> {
  try {
    const result = await attempt();
    if (result.matches.some((match) => match.text.includes('OUTSIDE'))) tally.leaked += 1;
    else tally.ok += 1;
  } catch {
    tally.refused += 1;
  }
}
