import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createSqliteEffectJournal } from './create-sqlite-effect-journal.js';
import { spawnFixture } from './test-support/spawn-fixture.js';

interface CallReport {
  readonly call: string;
  readonly ok: boolean;
  readonly toolResult?: unknown;
  readonly output?: unknown;
  readonly journal?: { readonly status: string };
  readonly reason?: string;
  readonly retryable?: boolean;
  readonly recoverable?: boolean;
}

// The durable effect bracket across a real crash: a process on the SQLite journal completes
// call A, starts call B's effect and is SIGKILLed in it; a new process on the same file must
// replay A, refuse B (it may have happened) and run C, each effect in the log exactly once.
describe('the SQLite journal across a SIGKILL mid-effect', () => {
  let base = '';
  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-journal-crash-')));
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  it('replays the settled call, refuses the interrupted one and runs a new one once', async () => {
    const journalFile = path.join(base, 'journal.db');
    const log = path.join(base, 'effects.log');
    await writeFile(log, '');
    const crashed = spawnFixture('journaled-run.ts', [journalFile, log, 'A=a', 'B=b'], {
      HANG_ON: 'b',
    });
    const firstA = JSON.parse(
      await crashed.waitForLine((line) => line.startsWith('{"call":"A"')),
    ) as CallReport;
    await crashed.waitForLine((line) => line === '{"effectStarted":"b"}');
    process.kill(crashed.child.pid ?? 0, 'SIGKILL');
    const crash = await crashed.exited;

    const resumed = await spawnFixture('journaled-run.ts', [journalFile, log, 'A=a', 'B=b', 'C=c'])
      .exited;
    const [replayA, refusedB, ranC] = resumed.lines.map((line) => JSON.parse(line) as CallReport);
    const journal = await createSqliteEffectJournal({ file: journalFile });
    const unresolved = await journal.listUnresolved();
    await journal.close();

    expect(crash.signal).toBe('SIGKILL');
    expect(firstA).toMatchObject({ ok: true, journal: { status: 'settled' } });
    expect(resumed.code).toBe(0);
    expect(replayA).toEqual({ ...firstA, journal: { ...firstA.journal, status: 'replayed' } });
    expect(refusedB).toEqual({
      call: 'B',
      ok: false,
      name: 'EffectJournalError',
      reason: 'effect_unresolved',
      retryable: false,
      recoverable: false,
    });
    expect(ranC).toMatchObject({ ok: true, journal: { status: 'settled' } });
    expect(await readFile(log, 'utf8')).toBe('a\nb\nc\n');
    expect(unresolved.map(({ runId, callKey, toolId }) => ({ runId, callKey, toolId }))).toEqual([
      { runId: 'run-crash', callKey: 'B', toolId: 'append_line' },
    ]);
  }, 60_000);
});
