import { randomUUID } from 'node:crypto';

import type BetterSqlite3 from 'better-sqlite3';
import {
  operatorResolvedRecord,
  type EffectKey,
  type JournalState,
  type SettledEffect,
} from '@toolhost/core/journal';

import { SqliteJournalError } from './journal-errors.js';
import {
  argsMacMemo,
  assertGcWindow,
  assertResolveAs,
  judgeEffectRow,
  journalSha256,
  type EffectRow,
} from './judge-effect-row.js';
import type { SqliteEffectJournal, UnresolvedClaim } from './sqlite-effect-journal-types.js';

interface ClaimRow {
  readonly run_id: string;
  readonly call_key: string;
  readonly tool_id: string;
  readonly claim_id: string;
  readonly prepared_at: number;
}

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
  const macOf = argsMacMemo(key);
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
    sha256: journalSha256,
    async lookup(effect: EffectKey): Promise<JournalState> {
      open();
      const row = selectCall.get(effect.runId, effect.callKey);
      return judgeEffectRow(row, effect, macOf, corruptRecord);
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
      assertResolveAs(as);
      return resolve.immediate(runId, callKey, as);
    },

    async gc({ olderThanMs, now = Date.now() }): Promise<{ readonly removed: number }> {
      open();
      assertGcWindow(olderThanMs, now);
      return { removed: deleteSettledBefore.run(now - olderThanMs).changes };
    },
  };
}

function isConstraintViolation(error: unknown): boolean {
  const code = (error as { readonly code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

const corruptRecord = (cause?: unknown): Error =>
  new SqliteJournalError('journal_corrupt', cause === undefined ? undefined : { cause });
