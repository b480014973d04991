import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createSqliteEffectJournal } from './create-sqlite-effect-journal.js';
import { spawnFixture } from './test-support/spawn-fixture.js';

interface RoundReport {
  readonly round: number;
  readonly sawAbsent: boolean;
  readonly won?: string;
  readonly lost?: string;
}

const TRIALS = 3;
const ROUNDS = 200;

// Two real processes on one new file: they race to create the journal (its key, its schema),
// then, told each round at the same moment, to look up and prepare the same call.
describe('two processes racing prepare on one SQLite journal', () => {
  let base = '';
  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-journal-race-')));
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  it('lets exactly one win every call, the other refused as journal_claim_exists', async () => {
    let bothSawAbsent = 0;
    for (let trial = 0; trial < TRIALS; trial += 1) {
      const file = path.join(base, `journal-${trial}.db`);
      const racers = [0, 1].map(() => spawnFixture('race-prepare.ts', [file]));
      await Promise.all(racers.map((racer) => racer.waitForLine((line) => line === 'ready')));
      const rounds: (readonly RoundReport[])[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const answers = racers.map((racer) =>
          racer.waitForLine((line) => line.startsWith(`{"round":${round},`)),
        );
        for (const racer of racers) racer.child.stdin?.write(`${round}\n`);
        rounds.push((await Promise.all(answers)).map((line) => JSON.parse(line) as RoundReport));
      }
      for (const racer of racers) racer.child.stdin?.end();
      const exits = await Promise.all(racers.map((racer) => racer.exited));
      const journal = await createSqliteEffectJournal({ file });
      const claims = await journal.listUnresolved({ runId: 'race' });
      await journal.close();

      expect(exits.map((exit) => [exit.code, exit.stderr])).toEqual([
        [0, ''],
        [0, ''],
      ]);
      for (const [round, reports] of rounds.entries()) {
        const winners = reports.flatMap((report) => report.won ?? []);
        expect(winners).toHaveLength(1);
        expect(reports.flatMap((report) => report.lost ?? [])).toEqual(['journal_claim_exists']);
        expect(claims[round]).toMatchObject({ callKey: `call-${round}`, claimId: winners[0] });
        if (reports.every((report) => report.sawAbsent)) bothSawAbsent += 1;
      }
      expect(claims).toHaveLength(ROUNDS);
    }

    // Check-then-act raced for real: in some rounds both looked, saw nothing, and prepared.
    expect(bothSawAbsent).toBeGreaterThan(0);
  }, 180_000);
});
