import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import Database from 'better-sqlite3';
import { z } from 'zod';
import { createToolRegistry, defineTool, type ToolDispatchContext } from '@toolhost/core';
import {
  createMemoryEffectJournal,
  type EffectJournal,
  type EffectKey,
} from '@toolhost/core/journal';

import type { BenchRow } from '../bench-row.js';
import { sampleInterleaved, type Sample } from '../sample-interleaved.js';
import { effectArgsDigest } from '../../packages/core/src/journal/effect-identity.js';
import { createSqliteEffectJournal } from '../../packages/node/src/journal/create-sqlite-effect-journal.js';
import { loadSqliteDriver } from '../../packages/node/src/journal/load-sqlite-driver.js';

// The durable effect bracket's cost, all in one interleaved run on one disk: a journaled
// side-effecting dispatch (SQLite at synchronous=FULL and NORMAL, and the memory journal as the
// engine-only peer) against the same dispatch without a journal and against two raw SQLite
// commits (the floor: a prepare and a settle are one commit each); then the replay lookup alone
// against a raw primary-key SELECT, and a whole replayed dispatch.

const LOOKUPS_PER_SAMPLE = 50;

export async function run(): Promise<BenchRow[]> {
  try {
    await loadSqliteDriver();
  } catch (error) {
    // An optional dependency: a machine without it (or with a build for another Node) skips.
    process.stderr.write(`bench journal: skipped (${(error as Error).message})\n`);
    return [];
  }
  const base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-bench-journal-')));
  const full = await createSqliteEffectJournal({ file: path.join(base, 'full.db') });
  const normal = await createSqliteEffectJournal({
    file: path.join(base, 'normal.db'),
    synchronous: 'NORMAL',
  });
  const rawFull = rawCommits(path.join(base, 'raw-full.db'), 'FULL');
  const rawNormal = rawCommits(path.join(base, 'raw-normal.db'), 'NORMAL');
  try {
    const effects: number[] = [];
    // A side effect of next to no cost, so every microsecond above the plain row is the journal's.
    const tool = defineTool({
      id: 'bench_effect',
      description: 'records one effect in memory',
      args: z.strictObject({ value: z.number() }),
      policy: {
        fsScoped: false,
        spawnsProcess: false,
        requiresGateApproval: false,
        journal: 'effect',
      },
      dispatch: async ({ value }) => ({ recorded: effects.push(value) }),
    });
    const registry = createToolRegistry({ tools: [tool], host: {} });
    const context: ToolDispatchContext = {
      nodeId: 'bench',
      grantedToolIds: new Set(['bench_effect']),
      config: {},
      toolPolicy: {},
      fsScope: 'sandboxed',
      gateApproved: false,
    };
    let sequence = 0;
    const dispatchWith = (store?: EffectJournal) => async () => {
      sequence += 1;
      const ctx =
        store === undefined ? context : { ...context, journal: { store, runId: 'bench' } };
      await registry.dispatch(
        { id: `call-${sequence}`, name: 'bench_effect', args: { value: 1 } },
        ctx,
      );
    };
    // The settled calls the replay rows read back, each a different call (a resumed run replays
    // each call once), so no row reads one record, or one argument digest, twice in a row.
    const fullCtx = { ...context, journal: { store: full, runId: 'bench' } };
    const normalCtx = { ...context, journal: { store: normal, runId: 'bench' } };
    const settled = Array.from({ length: LOOKUPS_PER_SAMPLE }, (_unused, index) => ({
      id: `settled-${index}`,
      name: 'bench_effect',
      args: { value: index },
    }));
    for (const call of settled) {
      await registry.dispatch(call, fullCtx);
      await registry.dispatch(call, normalCtx);
    }
    const fullKeys = await settledKeysOf(settled, full);
    const normalKeys = await settledKeysOf(settled, normal);
    const lookups = (lookup: (index: number) => unknown) => async () => {
      for (let index = 0; index < LOOKUPS_PER_SAMPLE; index += 1) await lookup(index);
    };
    let replayed = 0;
    const replayOne = async (): Promise<void> => {
      replayed += 1;
      const call = settled[replayed % settled.length];
      if (call === undefined) throw new Error('bench: no settled call');
      const outcome = await registry.dispatch(call, fullCtx);
      if (outcome.journal?.status !== 'replayed') throw new Error('bench: not a replay');
    };

    const samples = await sampleInterleaved(
      {
        plain: { run: dispatchWith() },
        memory: { run: dispatchWith(createMemoryEffectJournal()) },
        full: { run: dispatchWith(full) },
        normal: { run: dispatchWith(normal) },
        rawFull: { run: async () => rawFull.prepareAndSettle() },
        rawNormal: { run: async () => rawNormal.prepareAndSettle() },
        lookupFull: { run: lookups((index) => full.lookup(at(fullKeys, index))) },
        lookupNormal: { run: lookups((index) => normal.lookup(at(normalKeys, index))) },
        rawSelect: { run: lookups((index) => rawFull.select(index)) },
        replay: { run: replayOne },
      },
      { iterations: 200, warmup: 20 },
    );
    if (effects.length === 0) throw new Error('bench: no effect ran');

    const plain = { label: 'same dispatch, no journal', sample: samples.plain };
    const perLookup = (sample: Sample): Sample => ({
      medianUs: sample.medianUs / LOOKUPS_PER_SAMPLE,
      minUs: sample.minUs / LOOKUPS_PER_SAMPLE,
      cpuMedianUs: sample.cpuMedianUs / LOOKUPS_PER_SAMPLE,
    });
    const rawSelect = {
      label: 'raw better-sqlite3 SELECT by primary key',
      sample: perLookup(samples.rawSelect),
    };
    return [
      ...compare('dispatch + SQLite journal, FULL', samples.full, plain, '≤ +1000 µs'),
      ...compare('dispatch + SQLite journal, NORMAL', samples.normal, plain),
      ...compare('dispatch + memory journal (engine only)', samples.memory, plain),
      ...compare('dispatch + SQLite journal, FULL', samples.full, {
        label: 'floor: two raw commits (INSERT + UPDATE), FULL',
        sample: samples.rawFull,
      }),
      ...compare('dispatch + SQLite journal, NORMAL', samples.normal, {
        label: 'floor: two raw commits (INSERT + UPDATE), NORMAL',
        sample: samples.rawNormal,
      }),
      ...compare('replay lookup alone, FULL', perLookup(samples.lookupFull), rawSelect, '≤ 20 µs'),
      ...compare(
        'replay lookup alone, NORMAL',
        perLookup(samples.lookupNormal),
        rawSelect,
        '≤ 20 µs',
      ),
      ...compare('replayed dispatch (whole pipeline), FULL', samples.replay, plain),
    ];
  } finally {
    await full.close();
    await normal.close();
    rawFull.close();
    rawNormal.close();
    await rm(base, { recursive: true, force: true });
  }
}

interface Baseline {
  readonly label: string;
  readonly sample: Sample;
}

// A median row and a min row, the absolute difference in the name: the target is a delta.
function compare(label: string, sample: Sample, baseline: Baseline, target?: string): BenchRow[] {
  return (['median', 'min'] as const).map((statistic) => {
    const subjectUs = statistic === 'median' ? sample.medianUs : sample.minUs;
    const baselineUs = statistic === 'median' ? baseline.sample.medianUs : baseline.sample.minUs;
    const delta = subjectUs - baselineUs;
    return {
      name: `journal: ${label} (wall ${statistic}, ${delta >= 0 ? '+' : ''}${delta.toFixed(1)} µs)`,
      subject: label,
      baseline: baseline.label,
      subjectUs,
      baselineUs,
      ratio: subjectUs / baselineUs,
      ...(target === undefined ? {} : { target }),
    };
  });
}

// The same pragmas and the same two commits a journaled call makes, with none of the journal.
function rawCommits(
  file: string,
  synchronous: 'FULL' | 'NORMAL',
): { prepareAndSettle(): void; select(index: number): unknown; close(): void } {
  const database = new Database(file);
  database.pragma('journal_mode = WAL');
  database.pragma(`synchronous = ${synchronous}`);
  database.exec(
    'CREATE TABLE effect (run_id TEXT, call_key TEXT, state TEXT, record TEXT, PRIMARY KEY (run_id, call_key)) STRICT',
  );
  const insert = database.prepare("INSERT INTO effect VALUES ('bench', ?, 'prepared', NULL)");
  const update = database.prepare(
    "UPDATE effect SET state = 'settled', record = ? WHERE run_id = 'bench' AND call_key = ?",
  );
  const select = database.prepare(
    'SELECT state, record FROM effect WHERE run_id = ? AND call_key = ?',
  );
  let sequence = 0;
  for (let index = 0; index < LOOKUPS_PER_SAMPLE; index += 1) {
    insert.run(`settled-${index}`);
    update.run('{"result":{"recorded":1}}', `settled-${index}`);
  }
  return {
    prepareAndSettle() {
      sequence += 1;
      insert.run(`call-${sequence}`);
      update.run('{"result":{"recorded":1}}', `call-${sequence}`);
    },
    select: (index) => select.get('bench', `settled-${index}`),
    close: () => database.close(),
  };
}

// The engine's keys for the settled calls (their digests as the bracket computes them),
// checked: the bench must time settled lookups, not absent ones.
async function settledKeysOf(
  calls: readonly { readonly id: string; readonly name: string; readonly args: unknown }[],
  journal: EffectJournal,
): Promise<readonly EffectKey[]> {
  const keys: EffectKey[] = [];
  for (const call of calls) {
    const argsDigest = await effectArgsDigest(call.args);
    const key = { runId: 'bench', callKey: call.id, toolId: call.name, argsDigest };
    if ((await journal.lookup(key)).kind !== 'settled') throw new Error('bench: no settled record');
    keys.push(key);
  }
  return keys;
}

function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error('bench: index out of range');
  return item;
}
