import { randomBytes } from 'node:crypto';
import {
  chmod,
  link,
  mkdtemp,
  readFile,
  realpath,
  rm,
  stat,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isOperatorResolvedRecord, type EffectKey } from '@toolhost/core/journal';

import { createSqliteEffectJournal } from './create-sqlite-effect-journal.js';
import { readOrCreateJournalKey } from './journal-key.js';
import type { SqliteEffectJournal } from './sqlite-effect-journal-types.js';

const KEY: EffectKey = {
  runId: 'run-1',
  callKey: 'call-1',
  toolId: 'write_file',
  argsDigest: 'sha256:7f83b1657ff1fc53b92dc18148a1d65dfc2d4b1fa3d677284addd200126d9069',
};

describe('createSqliteEffectJournal', () => {
  let base = '';
  let file = '';
  let journal: SqliteEffectJournal | undefined;
  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-journal-')));
    file = path.join(base, 'journal.db');
  });
  afterEach(async () => {
    await journal?.close();
    journal = undefined;
    await rm(base, { recursive: true, force: true });
  });
  const open = async (): Promise<SqliteEffectJournal> => {
    await journal?.close();
    journal = await createSqliteEffectJournal({ file });
    return journal;
  };

  describe('the engine methods', () => {
    it('reports a call never prepared as absent', async () => {
      const store = await open();

      await expect(store.lookup(KEY)).resolves.toEqual({ kind: 'absent' });
    });

    it('reports a prepared claim with the claim id prepare returned', async () => {
      const store = await open();

      const { claimId } = await store.prepare(KEY);

      await expect(store.lookup(KEY)).resolves.toEqual({ kind: 'prepared', claimId });
    });

    it('returns the settled record for the same call and arguments', async () => {
      const store = await open();
      const { claimId } = await store.prepare(KEY);
      const record = { toolResult: { ok: true, lines: ['a', 'b'] }, output: null, n: 1.5 };

      await store.settle(claimId, record);

      await expect(store.lookup(KEY)).resolves.toEqual({ kind: 'settled', record });
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

      const again = store.prepare(KEY);
      const other = store.prepare({ ...KEY, argsDigest: 'sha256:other' });

      await expect(again).rejects.toMatchObject({ code: 'journal_claim_exists' });
      await expect(other).rejects.toMatchObject({ code: 'journal_claim_exists' });
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

      const attempts = [
        store.settle(claimId, { second: true }),
        store.discard(claimId),
        store.settle('no-such-claim', {}),
        store.discard('no-such-claim'),
      ];

      for (const attempt of attempts) {
        await expect(attempt).rejects.toMatchObject({ code: 'journal_claim_unknown' });
      }
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

    it('never writes the engine argsDigest to disk, only its keyed digest', async () => {
      const store = await open();
      const { claimId } = await store.prepare(KEY);
      await store.settle(claimId, { ok: true });

      const bytes = Buffer.concat([await readFile(file), await readFile(`${file}-wal`)]);

      expect(bytes.includes(KEY.runId)).toBe(true);
      expect(bytes.includes(KEY.argsDigest)).toBe(false);
      expect(bytes.includes(KEY.argsDigest.slice(7, 39))).toBe(false);
    });
  });

  describe('the operator methods', () => {
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

  describe('the files', () => {
    it('creates the journal, its -wal and -shm and its key 0600', async () => {
      const store = await open();
      await store.prepare(KEY);

      const modes = await Promise.all(
        [file, `${file}-wal`, `${file}-shm`, `${file}.key`].map(
          async (name) => (await stat(name)).mode & 0o777,
        ),
      );

      expect(modes).toEqual([0o600, 0o600, 0o600, 0o600]);
    });

    it('tightens an existing journal file left group- or world-readable', async () => {
      await (await open()).close();
      await chmod(file, 0o644);

      await open();

      expect((await stat(file)).mode & 0o777).toBe(0o600);
    });

    it('creates a 32-byte key once and reuses it', async () => {
      await (await open()).close();
      const key = await readFile(`${file}.key`);

      await open();

      expect(key).toHaveLength(32);
      expect(await readFile(`${file}.key`)).toEqual(key);
    });

    it.each([
      ['the journal', ''],
      ['its -wal', '-wal'],
      ['its -shm', '-shm'],
      ['its key', '.key'],
    ])('refuses a symlink at %s, leaving the target untouched', async (_case, suffix) => {
      const target = path.join(base, 'elsewhere');
      await writeFile(target, 'not yours\n');
      await symlink(target, `${file}${suffix}`);

      const attempt = createSqliteEffectJournal({ file });

      await expect(attempt).rejects.toMatchObject({ code: 'journal_path_unsafe' });
      expect(await readFile(target, 'utf8')).toBe('not yours\n');
    });

    it('refuses a dangling symlink at the journal path, creating nothing through it', async () => {
      const target = path.join(base, 'created-through-link');
      await symlink(target, file);

      const attempt = createSqliteEffectJournal({ file });

      await expect(attempt).rejects.toMatchObject({ code: 'journal_path_unsafe' });
      await expect(stat(target)).rejects.toMatchObject({ code: 'ENOENT' });
    });

    it('refuses a journal file hard-linked to another name', async () => {
      await (await open()).close();
      await link(file, path.join(base, 'second-name'));

      const attempt = createSqliteEffectJournal({ file });

      await expect(attempt).rejects.toMatchObject({ code: 'journal_path_unsafe' });
    });

    it('refuses a journal in a directory that does not exist, naming no path', async () => {
      const attempt = createSqliteEffectJournal({ file: path.join(base, 'missing', 'j.db') });

      await expect(attempt).rejects.toMatchObject({ code: 'journal_path_unsafe' });
      await expect(attempt).rejects.not.toThrow(base);
    });

    it('refuses an existing journal whose key is missing, rather than make a new one', async () => {
      await (await open()).close();
      await unlink(`${file}.key`);

      const attempt = createSqliteEffectJournal({ file });

      await expect(attempt).rejects.toMatchObject({ code: 'journal_key_missing' });
      await expect(stat(`${file}.key`)).rejects.toMatchObject({ code: 'ENOENT' });
    });

    it('gives every opener of a new journal the same key, however many race to create it', async () => {
      const openers = Array.from({ length: 8 }, () =>
        readOrCreateJournalKey(file, { journalIsNew: true }),
      );

      const keys = await Promise.all(openers);

      expect(new Set(keys.map((key) => key.toString('hex'))).size).toBe(1);
      expect(await readFile(`${file}.key`)).toEqual(keys[0]);
    });

    it.each([
      ['another 32-byte key', randomBytes(32)],
      ['a key of the wrong length', randomBytes(16)],
    ])('refuses %s', async (_case, key) => {
      await (await open()).close();
      await writeFile(`${file}.key`, key);

      const attempt = createSqliteEffectJournal({ file });

      await expect(attempt).rejects.toMatchObject({ code: 'journal_key_invalid' });
    });
  });

  describe('the schema', () => {
    const rewrite = (change: (database: Database.Database) => void): void => {
      const database = new Database(file);
      try {
        change(database);
      } finally {
        database.close();
      }
    };

    it('refuses a file that is not an SQLite database', async () => {
      await (await open()).close();
      await writeFile(file, randomBytes(8192));

      const attempt = createSqliteEffectJournal({ file });

      await expect(attempt).rejects.toMatchObject({ code: 'journal_corrupt' });
    });

    it('refuses a journal written by a newer schema version', async () => {
      await (await open()).close();
      rewrite((database) => database.pragma('user_version = 2'));

      const attempt = createSqliteEffectJournal({ file });

      await expect(attempt).rejects.toMatchObject({ code: 'journal_schema_unsupported' });
    });

    it('refuses another application’s SQLite database', async () => {
      await writeFile(`${file}.key`, randomBytes(32), { mode: 0o600 });
      rewrite((database) => database.exec('CREATE TABLE notes (body TEXT)'));

      const attempt = createSqliteEffectJournal({ file });

      await expect(attempt).rejects.toMatchObject({ code: 'journal_schema_unsupported' });
    });

    it('refuses a database with a foreign application id', async () => {
      await (await open()).close();
      rewrite((database) => database.pragma('application_id = 42'));

      const attempt = createSqliteEffectJournal({ file });

      await expect(attempt).rejects.toMatchObject({ code: 'journal_schema_unsupported' });
    });

    it('refuses a stored record that is not a JSON object', async () => {
      const store = await open();
      const { claimId } = await store.prepare(KEY);
      await store.settle(claimId, { ok: true });
      await store.close();
      rewrite((database) => database.prepare("UPDATE effect SET record = '[1'").run());

      const reopened = await open();

      await expect(reopened.lookup(KEY)).rejects.toMatchObject({ code: 'journal_corrupt' });
    });
  });

  it('refuses bad options before touching a file', async () => {
    const attempts = [
      createSqliteEffectJournal({ file: '' }),
      createSqliteEffectJournal({ file, synchronous: 'OFF' as 'FULL' }),
      createSqliteEffectJournal({ file, busyTimeoutMs: -1 }),
    ];

    for (const attempt of attempts) await expect(attempt).rejects.toThrow(TypeError);
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
