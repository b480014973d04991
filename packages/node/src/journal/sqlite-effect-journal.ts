import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';

import type BetterSqlite3 from 'better-sqlite3';
import {
  operatorResolvedRecord,
  type EffectKey,
  type JournalState,
  type SettledEffect,
} from '@toolhost/core';

import { SqliteJournalError } from './journal-errors.js';
import { keyedDigest } from './journal-key.js';
import type { SqliteEffectJournal, UnresolvedClaim } from './sqlite-effect-journal-types.js';

interface EffectRow {
  readonly tool_id: string;
  readonly args_mac: Buffer;
  readonly claim_id: string;
  readonly state: 'prepared' | 'settled';
  readonly record: string | null;
}

interface ClaimRow {
  readonly run_id: string;
  readonly call_key: string;
  readonly tool_id: string;
  readonly claim_id: string;
  readonly prepared_at: number;
}

const ABSENT: JournalState = { kind: 'absent' };
const MISMATCH: JournalState = { kind: 'mismatch' };

/**
 * The journal's methods over an open, migrated database. better-sqlite3 is synchronous: each
 * method is one statement (or one IMMEDIATE transaction) and commits before its promise settles,
 * which is what makes `prepare` durable before it resolves.
 */
export function sqliteEffectJournal(
  database: BetterSqlite3.Database,
  key: Buffer,
): SqliteEffectJournal {
  const selectCall = database.prepare<[string, string], EffectRow>(
    'SELECT tool_id, args_mac, claim_id, state, record FROM effect WHERE run_id = ? AND call_key = ?',
  );
  const insertClaim = database.prepare(
    "INSERT INTO effect (run_id, call_key, tool_id, args_mac, claim_id, state, prepared_at) VALUES (?, ?, ?, ?, ?, 'prepared', ?)",
  );
  const settleClaim = database.prepare(
    "UPDATE effect SET state = 'settled', record = ?, settled_at = ? WHERE claim_id = ? AND state = 'prepared'",
  );
  const deleteClaim = database.prepare(
    "DELETE FROM effect WHERE claim_id = ? AND state = 'prepared'",
  );
  const selectUnresolved = database.prepare<[], ClaimRow>(
    "SELECT run_id, call_key, tool_id, claim_id, prepared_at FROM effect WHERE state = 'prepared' ORDER BY prepared_at, rowid",
  );
  const selectUnresolvedOfRun = database.prepare<[string], ClaimRow>(
    "SELECT run_id, call_key, tool_id, claim_id, prepared_at FROM effect WHERE state = 'prepared' AND run_id = ? ORDER BY prepared_at, rowid",
  );
  const selectUnresolvedClaim = database
    .prepare<[string, string], string>(
      "SELECT claim_id FROM effect WHERE run_id = ? AND call_key = ? AND state = 'prepared'",
    )
    .pluck();
  const deleteSettledBefore = database.prepare(
    "DELETE FROM effect WHERE state = 'settled' AND settled_at < ?",
  );
  // The engine looks a call up and then prepares it: one HMAC (~8 µs) serves both.
  let lastMac: { readonly argsDigest: string; readonly mac: Buffer } | undefined;
  const macOf = (argsDigest: string): Buffer => {
    if (lastMac?.argsDigest !== argsDigest) {
      lastMac = { argsDigest, mac: keyedDigest(key, argsDigest) };
    }
    return lastMac.mac;
  };
  let closed = false;
  const open = (): void => {
    if (closed) throw new SqliteJournalError('journal_closed');
  };

  const settle = (claimId: string, record: SettledEffect): void => {
    const { changes } = settleClaim.run(JSON.stringify(record), Date.now(), claimId);
    if (changes === 0) throw new SqliteJournalError('journal_claim_unknown');
  };
  const discard = (claimId: string): void => {
    const { changes } = deleteClaim.run(claimId);
    if (changes === 0) throw new SqliteJournalError('journal_claim_unknown');
  };
  const resolve = database.transaction(
    (runId: string, callKey: string, as: 'done' | 'failed'): 'resolved' | 'not_found' => {
      const claimId = selectUnresolvedClaim.get(runId, callKey);
      if (claimId === undefined) return 'not_found';
      if (as === 'done') settle(claimId, operatorResolvedRecord(new Date().toISOString()));
      else discard(claimId);
      return 'resolved';
    },
  );

  return {
    // The engine digests arguments with this instead of WebCrypto's async SHA-256 (~50 µs).
    sha256: (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest()),
    async lookup(effect: EffectKey): Promise<JournalState> {
      open();
      const row = selectCall.get(effect.runId, effect.callKey);
      if (row === undefined) return ABSENT;
      // Another tool or other effective arguments under the same call id is never a replay.
      const mac = macOf(effect.argsDigest);
      const sameArgs = row.args_mac.length === mac.length && timingSafeEqual(row.args_mac, mac);
      if (row.tool_id !== effect.toolId || !sameArgs) return MISMATCH;
      if (row.state === 'prepared') return { kind: 'prepared', claimId: row.claim_id };
      return { kind: 'settled', record: parseRecord(row.record) };
    },

    async prepare(effect: EffectKey): Promise<{ readonly claimId: string }> {
      open();
      const claimId = randomUUID();
      try {
        insertClaim.run(
          effect.runId,
          effect.callKey,
          effect.toolId,
          macOf(effect.argsDigest),
          claimId,
          Date.now(),
        );
      } catch (error) {
        if (isConstraintViolation(error)) {
          throw new SqliteJournalError('journal_claim_exists', { cause: error });
        }
        throw error;
      }
      return { claimId };
    },

    async settle(claimId: string, record: SettledEffect): Promise<void> {
      open();
      settle(claimId, record);
    },

    async discard(claimId: string): Promise<void> {
      open();
      discard(claimId);
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      database.close();
    },

    async listUnresolved(filter = {}): Promise<readonly UnresolvedClaim[]> {
      open();
      const rows =
        filter.runId === undefined
          ? selectUnresolved.all()
          : selectUnresolvedOfRun.all(filter.runId);
      return rows.map((row) => ({
        runId: row.run_id,
        callKey: row.call_key,
        toolId: row.tool_id,
        claimId: row.claim_id,
        preparedAt: new Date(row.prepared_at).toISOString(),
      }));
    },

    async resolve(runId, callKey, as): Promise<'resolved' | 'not_found'> {
      open();
      if (as !== 'done' && as !== 'failed') {
        throw new TypeError("toolhost: resolve takes 'done' or 'failed'");
      }
      return resolve.immediate(runId, callKey, as);
    },

    async gc({ olderThanMs, now = Date.now() }): Promise<{ readonly removed: number }> {
      open();
      if (!Number.isFinite(olderThanMs) || olderThanMs < 0 || !Number.isFinite(now)) {
        throw new TypeError('toolhost: gc needs a finite, non-negative olderThanMs');
      }
      return { removed: deleteSettledBefore.run(now - olderThanMs).changes };
    },
  };
}

function parseRecord(text: string | null): SettledEffect {
  let record: unknown;
  try {
    record = text === null ? null : JSON.parse(text);
  } catch (error) {
    throw new SqliteJournalError('journal_corrupt', { cause: error });
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    throw new SqliteJournalError('journal_corrupt');
  }
  return record as SettledEffect;
}

function isConstraintViolation(error: unknown): boolean {
  const code = (error as { readonly code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
