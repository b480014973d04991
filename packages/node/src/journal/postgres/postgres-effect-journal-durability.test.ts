import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createPostgresEffectJournal } from './create-postgres-effect-journal.js';
import { hasPostgres, startPostgres, type PostgresServer } from './test-support/start-postgres.js';

const CLAIMS = 40;

// A prepared claim must be committed, not merely sent, when `prepare` resolves: the server is
// SIGKILLed the moment the last prepare returns, with no shutdown checkpoint to save it.
describe.skipIf(!hasPostgres())('the Postgres journal across a server SIGKILL', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(() => server?.stop());

  it('keeps every claim prepare reported, still prepared, after a restart on the same data', async () => {
    const key = randomBytes(32);
    const options = { connectionString: server.connectionString, key };
    const worker = await createPostgresEffectJournal(options);
    const calls = Array.from({ length: CLAIMS }, (_, index) => ({
      runId: 'run-durable',
      callKey: `call-${index}`,
      toolId: 'write_file',
      argsDigest: `sha256:${index}`,
    }));
    const claimIds: string[] = [];
    for (const call of calls) claimIds.push((await worker.prepare(call)).claimId);

    await server.kill();
    const whileDown = await worker.lookup(calls[0]!).catch((error: unknown) => error);
    await server.restart();
    const restarted = await createPostgresEffectJournal(options);
    const states = await Promise.all(calls.map((call) => restarted.lookup(call)));
    // The first worker's pool reconnects by itself: its next call works.
    const settledByFirst = await worker.settle(claimIds[0]!, { ok: true }).then(() => 'settled');
    await Promise.all([worker.close(), restarted.close()]);

    expect(whileDown).toMatchObject({ code: 'journal_unavailable' });
    expect(states).toEqual(claimIds.map((claimId) => ({ kind: 'prepared', claimId })));
    expect(settledByFirst).toBe('settled');
  }, 60_000);
});
