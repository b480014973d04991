import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { createPostgresEffectJournal } from './create-postgres-effect-journal.js';
import type { PostgresEffectJournal } from './postgres-effect-journal-types.js';
import { hasPostgres, startPostgres, type PostgresServer } from './test-support/start-postgres.js';

const ROUNDS = 50;
const ATTEMPTS_PER_WORKER = 6;
const OPENERS = 8;

// Workers on several machines share one database: here each "worker" is a journal on a pool
// of its own, so every attempt goes through its own connection and its own transaction.
describe.skipIf(!hasPostgres())('workers racing on one Postgres journal', () => {
  let server: PostgresServer;
  const journals: PostgresEffectJournal[] = [];
  const key = randomBytes(32);
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(() => server?.stop());
  afterEach(async () => {
    for (const journal of journals.splice(0)) await journal.close();
  });
  const openWorker = async (schema: string): Promise<PostgresEffectJournal> => {
    const journal = await createPostgresEffectJournal({
      connectionString: server.connectionString,
      schema,
      key,
    });
    journals.push(journal);
    return journal;
  };

  it('lets exactly one prepare win every call, every other refused as journal_claim_exists', async () => {
    await (await openWorker('race')).close();
    const workers = await Promise.all([openWorker('race'), openWorker('race')]);
    let racedRounds = 0;
    const tally: { winners: number; lost: string[] }[] = [];

    for (let round = 0; round < ROUNDS; round += 1) {
      const call = {
        runId: 'race',
        callKey: `call-${round}`,
        toolId: 'write_file',
        argsDigest: 'd',
      };
      // The engine's check-then-act, from every worker at once.
      const attempts = workers.flatMap((worker) =>
        Array.from({ length: ATTEMPTS_PER_WORKER }, async () => {
          const sawAbsent = (await worker.lookup(call)).kind === 'absent';
          try {
            return { sawAbsent, won: (await worker.prepare(call)).claimId };
          } catch (error) {
            return { sawAbsent, lost: String((error as { code?: unknown }).code) };
          }
        }),
      );
      const reports = await Promise.all(attempts);
      tally.push({
        winners: reports.filter((report) => report.won !== undefined).length,
        lost: [...new Set(reports.flatMap((report) => report.lost ?? []))],
      });
      if (reports.filter((report) => report.sawAbsent).length > 1) racedRounds += 1;
    }
    const claims = await workers[0]!.listUnresolved({ runId: 'race' });

    expect(tally).toEqual(
      Array.from({ length: ROUNDS }, () => ({ winners: 1, lost: ['journal_claim_exists'] })),
    );
    expect(claims).toHaveLength(ROUNDS);
    // Check-then-act raced for real: in some rounds several attempts saw nothing and prepared.
    expect(racedRounds).toBeGreaterThan(0);
  }, 120_000);

  it('creates a new journal once when many workers open it at the same moment', async () => {
    const openers = Array.from({ length: OPENERS }, () => openWorker('first_open'));

    const opened = await Promise.allSettled(openers);
    const admin = new pg.Client({ connectionString: server.connectionString });
    await admin.connect();
    const { rows } = await admin.query('SELECT name FROM first_open.journal_meta ORDER BY name');
    await admin.end();

    expect(opened.map((result) => result.status)).toEqual(Array(OPENERS).fill('fulfilled'));
    expect(rows).toEqual([{ name: 'key_check' }, { name: 'schema_version' }]);
  });
});
