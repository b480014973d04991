import { randomBytes } from 'node:crypto';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import {
  hasPostgres,
  startPostgres,
  type PostgresServer,
} from '../../node/src/journal/postgres/test-support/start-postgres.js';
import { effectCall, writeEffectScript } from './test-support/effect-script.js';
import { startFleet, type Fleet } from './test-support/fleet-harness.js';

// Workers on several machines share no file: here two worker processes with state directories
// of their own and one PostgreSQL journal. The second finds the first's claim.

describe.skipIf(!hasPostgres())(
  'a fleet on the shared Postgres journal',
  { timeout: 120_000 },
  () => {
    let postgres: PostgresServer | undefined;
    let fleet: Fleet | undefined;
    const key = randomBytes(32).toString('hex');
    beforeAll(async () => {
      postgres = await startPostgres();
    }, 60_000);
    afterEach(async () => {
      await fleet?.close();
      fleet = undefined;
    });
    afterAll(async () => {
      await postgres?.stop();
    });

    it('a worker on another machine refuses the side effect the dead one was inside, and replays the one it finished', async () => {
      fleet = await startFleet();
      await writeEffectScript(fleet.workspace);
      const shared = { connectionString: postgres!.connectionString, key };
      const done = effectCall('a', 'A', 0);
      const stuck = effectCall('b', 'B', 60);
      const allowedCommands = [done.allowed, stuck.allowed];
      const first = await fleet.startWorker({
        postgres: shared,
        stateName: 'machine-1',
        allowedCommands,
      });
      const run = await fleet.startRun('pg-run', [[done.call], [stuck.call]]);
      await waitForLog(fleet, 'A\nA-end\nB\n');

      await first.kill();
      await fleet.startWorker({ postgres: shared, stateName: 'machine-2', allowedCommands });
      const outcome = await fleet.outcome(run);

      expect(outcome.ok).toBe(false);
      expect(JSON.stringify(outcome.body)).toContain('effect_unresolved');
      expect(await fleet.readWorkspace('effects.log')).toBe('A\nA-end\nB\n');
    });
  },
);

async function waitForLog(fleet: Fleet, content: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((await fleet.readWorkspace('effects.log')) !== content) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the effect log');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
