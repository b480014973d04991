import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isOperatorResolvedRecord, type EffectKey } from '@toolhost/core/journal';

import { createPostgresEffectJournal } from './create-postgres-effect-journal.js';
import type {
  PostgresEffectJournal,
  PostgresEffectJournalOptions,
} from './postgres-effect-journal-types.js';
import { hasPostgres, startPostgres, type PostgresServer } from './test-support/start-postgres.js';

const KEY: EffectKey = {
  runId: 'run-1',
  callKey: 'call-1',
  toolId: 'write_file',
  argsDigest: 'sha256:7f83b1657ff1fc53b92dc18148a1d65dfc2d4b1fa3d677284addd200126d9069',
};
const SECRET = randomBytes(32);

describe.skipIf(!hasPostgres())('createPostgresEffectJournal', () => {
  let server: PostgresServer;
  let admin: pg.Pool;
  let schemas = 0;
  let schema = '';
  const journals: PostgresEffectJournal[] = [];
  beforeAll(async () => {
    server = await startPostgres();
    admin = new pg.Pool({ connectionString: server.connectionString });
    admin.on('error', () => undefined);
  });
  afterAll(async () => {
    await admin?.end();
    await server?.stop();
  });
  afterEach(async () => {
    for (const journal of journals.splice(0)) await journal.close();
  });
  // Every test its own schema: one server per file, no test sees another's rows.
  // The test's schema and key, on the server, unless the test gives a pool or another value.
  const open = async ({
    connectionString = server.connectionString,
    pool,
    key = SECRET,
  }: {
    readonly connectionString?: string;
    readonly pool?: pg.Pool;
    readonly key?: Uint8Array | string;
  } = {}): Promise<PostgresEffectJournal> => {
    const journal = await createPostgresEffectJournal(
      pool === undefined ? { connectionString, schema, key } : { pool, schema, key },
    );
    journals.push(journal);
    return journal;
  };
  const freshSchema = (): string => {
    schemas += 1;
    schema = `journal_${schemas}`;
    return schema;
  };

  describe('the engine methods', () => {
    afterEach(() => void freshSchema());
    beforeAll(() => void freshSchema());

    it('reports a call never prepared as absent', async () => {
      const store = await open();

      await expect(store.lookup(KEY)).resolves.toEqual({ kind: 'absent' });
    });

    it('reports a prepared claim with the claim id prepare returned', async () => {
      const store = await open();

      const { claimId } = await store.prepare(KEY);

      await expect(store.lookup(KEY)).resolves.toEqual({ kind: 'prepared', claimId });
    });

    it('returns the settled record for the same call and arguments, keys in order', async () => {
      const store = await open();
      const { claimId } = await store.prepare(KEY);
      const record = {
        toolResult: { z: true, a: ['a', 'b'] },
        output: null,
        n: 1.5,
        s: 'x\u0000y',
      };

      await store.settle(claimId, record);
      const state = await store.lookup(KEY);

      expect(state).toEqual({ kind: 'settled', record });
      expect(JSON.stringify(state)).toBe(JSON.stringify({ kind: 'settled', record }));
    });

    it.each([
      ['another argsDigest', { argsDigest: 'sha256:other' }],
      ['another toolId', { toolId: 'run_command' }],
    ])('reports %s under the same runId + callKey as a mismatch', async (_case, change) => {
      const store = await open();
      const { claimId } = await store.prepare(KEY);
      const prepared = await store.lookup({ ...KEY, ...change });
      await store.settle(claimId, { done: true });

      const settled = await store.lookup({ ...KEY, ...change });

      expect([prepared, settled]).toEqual([{ kind: 'mismatch' }, { kind: 'mismatch' }]);
    });

    it('reports a mismatch to a worker holding the same key but another argsDigest', async () => {
      const writer = await open();
      await writer.prepare(KEY);
      const other = await open();

      const same = await other.lookup(KEY);
      const changed = await other.lookup({ ...KEY, argsDigest: `${KEY.argsDigest.slice(0, -1)}0` });

      expect(same).toMatchObject({ kind: 'prepared' });
      expect(changed).toEqual({ kind: 'mismatch' });
    });

    it('keeps calls of other runs and other call ids apart', async () => {
      const store = await open();
      await store.prepare(KEY);

      const states = await Promise.all([
        store.lookup({ ...KEY, runId: 'run-2' }),
        store.lookup({ ...KEY, callKey: 'call-2' }),
      ]);

      expect(states).toEqual([{ kind: 'absent' }, { kind: 'absent' }]);
    });

    it('refuses a second prepare of the same call, whatever its arguments', async () => {
      const store = await open();
      await store.prepare(KEY);

      const again = await Promise.allSettled([
        store.prepare(KEY),
        store.prepare({ ...KEY, argsDigest: 'sha256:other' }),
      ]);

      expect(again.map((attempt) => attempt.status === 'rejected' && attempt.reason.code)).toEqual([
        'journal_claim_exists',
        'journal_claim_exists',
      ]);
    });

    it('forgets a discarded claim, so the call may be prepared again', async () => {
      const store = await open();
      const { claimId } = await store.prepare(KEY);

      await store.discard(claimId);

      await expect(store.lookup(KEY)).resolves.toEqual({ kind: 'absent' });
      await expect(store.prepare(KEY)).resolves.toMatchObject({ claimId: expect.any(String) });
    });

    it('refuses to settle or discard a claim it does not hold unsettled', async () => {
      const store = await open();
      const { claimId } = await store.prepare(KEY);
      await store.settle(claimId, { first: true });

      const attempts = await Promise.allSettled([
        store.settle(claimId, { second: true }),
        store.discard(claimId),
        store.settle('no-such-claim', {}),
        store.discard('no-such-claim'),
      ]);

      expect(attempts).toEqual(
        Array.from({ length: 4 }, () => ({
          status: 'rejected',
          reason: expect.objectContaining({ code: 'journal_claim_unknown' }),
        })),
      );
      await expect(store.lookup(KEY)).resolves.toEqual({
        kind: 'settled',
        record: { first: true },
      });
    });

    it('keeps claims and records across a close and a reopen', async () => {
      const first = await open();
      const { claimId } = await first.prepare(KEY);
      await first.settle(claimId, { result: 'kept' });
      const { claimId: openClaim } = await first.prepare({ ...KEY, callKey: 'call-2' });
      await first.close();

      const reopened = await open();

      await expect(reopened.lookup(KEY)).resolves.toEqual({
        kind: 'settled',
        record: { result: 'kept' },
      });
      await expect(reopened.lookup({ ...KEY, callKey: 'call-2' })).resolves.toEqual({
        kind: 'prepared',
        claimId: openClaim,
      });
    });

    it('refuses every method once closed', async () => {
      const store = await open();
      await store.close();

      await expect(store.lookup(KEY)).rejects.toMatchObject({ code: 'journal_closed' });
      await expect(store.prepare(KEY)).rejects.toMatchObject({ code: 'journal_closed' });
    });

    it('stores only the keyed digest of argsDigest, never the digest itself', async () => {
      const store = await open();
      const { claimId } = await store.prepare(KEY);
      await store.settle(claimId, { ok: true });

      const { rows } = await admin.query(`SELECT * FROM ${schema}.effect`);
      const stored = JSON.stringify(rows) + rows.map((row) => row.args_mac.toString('hex')).join();

      expect(rows).toHaveLength(1);
      expect(stored).not.toContain(KEY.argsDigest.slice(7, 39));
      expect(rows[0].args_mac).toHaveLength(32);
    });

    it('offers a synchronous SHA-256', async () => {
      const store = await open();

      const digest = store.sha256?.(new TextEncoder().encode('abc'));

      expect(Buffer.from(digest ?? []).toString('hex')).toBe(
        'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      );
    });
  });

  describe('the operator methods', () => {
    afterEach(() => void freshSchema());
    beforeAll(() => void freshSchema());

    it('lists unresolved claims, all or one run, and never settled ones', async () => {
      const store = await open();
      const settled = await store.prepare({ ...KEY, callKey: 'settled' });
      await store.settle(settled.claimId, {});
      const first = await store.prepare(KEY);
      const second = await store.prepare({ ...KEY, runId: 'run-2', toolId: 'run_command' });

      const all = await store.listUnresolved();
      const ofRun = await store.listUnresolved({ runId: 'run-2' });

      expect(all.map((claim) => claim.claimId)).toEqual([first.claimId, second.claimId]);
      expect(ofRun).toEqual([
        {
          runId: 'run-2',
          callKey: 'call-1',
          toolId: 'run_command',
          claimId: second.claimId,
          preparedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        },
      ]);
    });

    it("settles a claim resolved 'done' with the operator's record", async () => {
      const store = await open();
      await store.prepare(KEY);

      const outcome = await store.resolve(KEY.runId, KEY.callKey, 'done');
      const state = await store.lookup(KEY);

      expect(outcome).toBe('resolved');
      expect(state.kind === 'settled' && isOperatorResolvedRecord(state.record)).toBe(true);
      await expect(store.listUnresolved()).resolves.toEqual([]);
    });

    it("discards a claim resolved 'failed', so the call may run again", async () => {
      const store = await open();
      await store.prepare(KEY);

      const outcome = await store.resolve(KEY.runId, KEY.callKey, 'failed');

      expect(outcome).toBe('resolved');
      await expect(store.lookup(KEY)).resolves.toEqual({ kind: 'absent' });
    });

    it('answers not_found for a settled call or one never prepared, changing nothing', async () => {
      const store = await open();
      const { claimId } = await store.prepare(KEY);
      await store.settle(claimId, { mine: true });

      const outcomes = [
        await store.resolve(KEY.runId, KEY.callKey, 'failed'),
        await store.resolve(KEY.runId, 'never', 'done'),
      ];

      expect(outcomes).toEqual(['not_found', 'not_found']);
      await expect(store.lookup(KEY)).resolves.toEqual({ kind: 'settled', record: { mine: true } });
    });

    it('refuses a verdict other than done or failed', async () => {
      const store = await open();
      await store.prepare(KEY);

      const attempt = store.resolve(KEY.runId, KEY.callKey, 'maybe' as 'done');

      await expect(attempt).rejects.toThrow(TypeError);
      await expect(store.lookup(KEY)).resolves.toMatchObject({ kind: 'prepared' });
    });

    it('sweeps settled records older than the age and never an unresolved claim', async () => {
      const store = await open();
      const old = await store.prepare({ ...KEY, callKey: 'old' });
      await store.settle(old.claimId, {});
      await store.prepare({ ...KEY, callKey: 'unresolved' });
      const hour = 3_600_000;

      const none = await store.gc({ olderThanMs: hour });
      const swept = await store.gc({ olderThanMs: hour, now: Date.now() + 2 * hour });

      expect([none, swept]).toEqual([{ removed: 0 }, { removed: 1 }]);
      await expect(store.lookup({ ...KEY, callKey: 'old' })).resolves.toEqual({ kind: 'absent' });
      await expect(store.listUnresolved()).resolves.toHaveLength(1);
    });

    it('refuses a negative or non-finite age', async () => {
      const store = await open();

      await expect(store.gc({ olderThanMs: -1 })).rejects.toThrow(TypeError);
      await expect(store.gc({ olderThanMs: Number.NaN })).rejects.toThrow(TypeError);
    });
  });

  describe('the schema and the key', () => {
    afterEach(() => void freshSchema());
    beforeAll(() => void freshSchema());

    it('creates the schema, its tables and a version row on first open', async () => {
      await open();

      const { rows } = await admin.query(
        `SELECT name, value FROM ${schema}.journal_meta ORDER BY name`,
      );

      expect(rows).toEqual([
        { name: 'key_check', value: expect.stringMatching(/^[0-9a-f]{64}$/) },
        { name: 'schema_version', value: '1' },
      ]);
    });

    it('refuses to open with another key than the one the journal was created with', async () => {
      await (await open()).close();

      const attempt = open({ key: randomBytes(32) });

      await expect(attempt).rejects.toMatchObject({ code: 'journal_key_invalid' });
    });

    it.each([
      ['hex', SECRET.toString('hex')],
      ['base64', SECRET.toString('base64')],
      ['unpadded base64url', SECRET.toString('base64url')],
    ])('opens with the same key spelt as %s', async (_case, key) => {
      const first = await open();
      const { claimId } = await first.prepare(KEY);

      const again = await open({ key });

      await expect(again.lookup(KEY)).resolves.toEqual({ kind: 'prepared', claimId });
    });

    it('refuses a journal written by a newer schema version', async () => {
      await (await open()).close();
      await admin.query(
        `UPDATE ${schema}.journal_meta SET value = '2' WHERE name = 'schema_version'`,
      );

      const attempt = open();

      await expect(attempt).rejects.toMatchObject({ code: 'journal_schema_unsupported' });
    });

    it('refuses another application’s effect table in the schema', async () => {
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.query(`CREATE TABLE ${schema}.effect (id int)`);

      const attempt = open();

      await expect(attempt).rejects.toMatchObject({ code: 'journal_schema_unsupported' });
    });

    it('refuses a stored record that is not a JSON object', async () => {
      const store = await open();
      const { claimId } = await store.prepare(KEY);
      await store.settle(claimId, { ok: true });
      await admin.query(`UPDATE ${schema}.effect SET record = '[1'`);

      await expect(store.lookup(KEY)).rejects.toMatchObject({ code: 'journal_corrupt' });
    });

    it('refuses a database with synchronous_commit off, as prepare would not be durable', async () => {
      const pool = new pg.Pool({
        connectionString: server.connectionString,
        options: '-c synchronous_commit=off',
      });

      const attempt = open({ pool });

      await expect(attempt).rejects.toMatchObject({ code: 'journal_not_durable' });
      await pool.end();
    });

    it('opens on an embedder-owned pool and leaves it open on close', async () => {
      const pool = new pg.Pool({ connectionString: server.connectionString });
      const store = await open({ pool });
      await store.prepare(KEY);

      await store.close();

      await expect(pool.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
      await pool.end();
    });

    it('works for a role with no CREATE privilege once the journal exists', async () => {
      await (await open()).close();
      const role = `worker_${schemas}`;
      await admin.query(`CREATE ROLE ${role} LOGIN`);
      await admin.query(`GRANT USAGE ON SCHEMA ${schema} TO ${role}`);
      await admin.query(`GRANT SELECT ON ${schema}.journal_meta TO ${role}`);
      await admin.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ${schema}.effect TO ${role}`);
      await admin.query(`REVOKE CREATE ON SCHEMA public FROM PUBLIC`);
      const connectionString = server.connectionString.replace('postgres@', `${role}@`);

      const store = await open({ connectionString });

      await expect(store.prepare(KEY)).resolves.toMatchObject({ claimId: expect.any(String) });
    });
  });

  describe('the options and the errors', () => {
    beforeAll(() => void freshSchema());

    it.each([
      ['no connection', { connectionString: undefined }],
      ['both a connection string and a pool', { connectionString: 'postgresql://x', pool: {} }],
      ['an empty connection string', { connectionString: '', key: SECRET }],
      ['a schema name with a quote', { schema: 'a"; DROP SCHEMA public; --' }],
      ['an upper-case schema name', { schema: 'Toolhost' }],
      ['a pg_ schema name', { schema: 'pg_toolhost' }],
      ['a schema name over 63 characters', { schema: 'a'.repeat(64) }],
      ['a key of 16 bytes', { key: randomBytes(16) }],
      ['a hex key of 31 bytes', { key: randomBytes(31).toString('hex') }],
      ['a key that is a passphrase', { key: 'correct horse battery staple' }],
      ['a key that is a number', { key: 42 }],
    ])('refuses %s before connecting', async (_case, change) => {
      const options = {
        connectionString: 'postgresql://nobody:pw@127.0.0.1:1/none',
        key: SECRET,
        ...change,
      };

      const attempt = createPostgresEffectJournal(
        options as unknown as PostgresEffectJournalOptions,
      );

      await expect(attempt).rejects.toThrow(TypeError);
    });

    it('never echoes a refused key', async () => {
      const key = 'not-a-key-but-a-secret-passphrase';

      const attempt = createPostgresEffectJournal({
        connectionString: server.connectionString,
        key,
      });

      await expect(attempt).rejects.not.toThrow(key);
      await expect(attempt).rejects.not.toThrow('passphrase');
    });

    it('keeps the password, user, host and port out of a connection failure message', async () => {
      const password = 'hunter2-very-secret';
      const connectionString = `postgresql://agent:${password}@127.0.0.1:1/journal_db`;

      const error = (await open({ connectionString }).catch((caught: unknown) => caught)) as Error;

      expect(error).toMatchObject({ name: 'PostgresJournalError', code: 'journal_unavailable' });
      expect((error as { cause?: unknown }).cause).toBeInstanceOf(Error);
      for (const secret of [password, 'agent', '127.0.0.1', ':1', 'journal_db', connectionString]) {
        expect(error.message).not.toContain(secret);
        expect(String(error)).not.toContain(secret);
      }
    });

    it('keeps an argument value out of a statement the database refuses', async () => {
      const store = await open();
      const value = 'secret\u0000value';

      const attempt = store.prepare({ ...KEY, callKey: value });

      await expect(attempt).rejects.toMatchObject({ code: 'journal_unavailable' });
      await expect(attempt).rejects.not.toThrow('secret');
    });
  });
});
