import { randomUUID } from 'node:crypto';

import {
  operatorResolvedRecord,
  type EffectKey,
  type JournalState,
  type SettledEffect,
} from '@toolhost/core/journal';

import {
  argsMacMemo,
  assertGcWindow,
  assertResolveAs,
  judgeEffectRow,
  journalSha256,
  type EffectRow,
} from '../judge-effect-row.js';
import type { UnresolvedClaim } from '../sqlite-effect-journal-types.js';
import { asPostgresJournalError, PostgresJournalError } from './postgres-journal-errors.js';
import type { PostgresEffectJournal, PostgresPool } from './postgres-effect-journal-types.js';

interface ClaimRow {
  readonly run_id: string;
  readonly call_key: string;
  readonly tool_id: string;
  readonly claim_id: string;
  // bigint: `pg` hands int8 back as a string.
  readonly prepared_at: string;
}

const UNIQUE_VIOLATION = '23505';

/**
 * The journal's methods over a migrated schema. Each method is one parameterised statement,
 * autocommitted before its promise settles: that is what makes `prepare` durable before it
 * resolves, and the primary key is what lets only one of two racing workers' INSERTs commit.
 * `schema` is a validated identifier, already quoted; `end` closes a pool the journal owns.
 */
export function postgresEffectJournal({
  pool,
  schema,
  key,
  end,
}: {
  readonly pool: PostgresPool;
  readonly schema: string;
  readonly key: Buffer;
  readonly end: () => Promise<void>;
}): PostgresEffectJournal {
  const effect = `${schema}.effect`;
  const selectCall = `SELECT tool_id, args_mac, claim_id, state, record FROM ${effect} WHERE run_id = $1 AND call_key = $2`;
  const insertClaim = `INSERT INTO ${effect} (run_id, call_key, tool_id, args_mac, claim_id, state, prepared_at) VALUES ($1, $2, $3, $4, $5, 'prepared', $6)`;
  const settleClaim = `UPDATE ${effect} SET state = 'settled', record = $1, settled_at = $2 WHERE claim_id = $3 AND state = 'prepared'`;
  const deleteClaim = `DELETE FROM ${effect} WHERE claim_id = $1 AND state = 'prepared'`;
  const settleCall = `UPDATE ${effect} SET state = 'settled', record = $1, settled_at = $2 WHERE run_id = $3 AND call_key = $4 AND state = 'prepared'`;
  const deleteCall = `DELETE FROM ${effect} WHERE run_id = $1 AND call_key = $2 AND state = 'prepared'`;
  const selectUnresolved = `SELECT run_id, call_key, tool_id, claim_id, prepared_at FROM ${effect} WHERE state = 'prepared' AND ($1::text IS NULL OR run_id = $1) ORDER BY prepared_at, seq`;
  const deleteSettledBefore = `DELETE FROM ${effect} WHERE state = 'settled' AND settled_at < $1`;

  const macOf = argsMacMemo(key);
  let closed = false;
  const run = async (
    text: string,
    values: unknown[],
  ): Promise<{ rows: readonly unknown[]; changes: number }> => {
    if (closed) throw new PostgresJournalError('journal_closed');
    try {
      const result = await pool.query(text, values);
      return { rows: result.rows, changes: result.rowCount ?? 0 };
    } catch (error) {
      if ((error as { readonly code?: unknown } | null)?.code === UNIQUE_VIOLATION) {
        throw new PostgresJournalError('journal_claim_exists', { cause: error });
      }
      throw asPostgresJournalError(error);
    }
  };

  return {
    sha256: journalSha256,
    async lookup(call: EffectKey): Promise<JournalState> {
      const [row] = (await run(selectCall, [call.runId, call.callKey])).rows as EffectRow[];
      return judgeEffectRow(row, call, macOf, corruptRecord);
    },

    async prepare(call: EffectKey): Promise<{ readonly claimId: string }> {
      const claimId = randomUUID();
      const mac = macOf(call.argsDigest);
      await run(insertClaim, [call.runId, call.callKey, call.toolId, mac, claimId, Date.now()]);
      return { claimId };
    },

    async settle(claimId: string, record: SettledEffect): Promise<void> {
      const { changes } = await run(settleClaim, [JSON.stringify(record), Date.now(), claimId]);
      if (changes === 0) throw new PostgresJournalError('journal_claim_unknown');
    },

    async discard(claimId: string): Promise<void> {
      const { changes } = await run(deleteClaim, [claimId]);
      if (changes === 0) throw new PostgresJournalError('journal_claim_unknown');
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await end();
    },

    async listUnresolved(filter = {}): Promise<readonly UnresolvedClaim[]> {
      const { rows } = await run(selectUnresolved, [filter.runId ?? null]);
      return (rows as readonly ClaimRow[]).map((row) => ({
        runId: row.run_id,
        callKey: row.call_key,
        toolId: row.tool_id,
        claimId: row.claim_id,
        preparedAt: new Date(Number(row.prepared_at)).toISOString(),
      }));
    },

    async resolve(runId, callKey, as): Promise<'resolved' | 'not_found'> {
      assertResolveAs(as);
      // One conditional statement each: a worker settling the claim meanwhile wins or loses whole.
      const { changes } =
        as === 'done'
          ? await run(settleCall, [
              JSON.stringify(operatorResolvedRecord(new Date().toISOString())),
              Date.now(),
              runId,
              callKey,
            ])
          : await run(deleteCall, [runId, callKey]);
      return changes === 0 ? 'not_found' : 'resolved';
    },

    async gc({ olderThanMs, now = Date.now() }): Promise<{ readonly removed: number }> {
      assertGcWindow(olderThanMs, now);
      return { removed: (await run(deleteSettledBefore, [Math.floor(now - olderThanMs)])).changes };
    },
  };
}

const corruptRecord = (cause?: unknown): Error =>
  new PostgresJournalError('journal_corrupt', cause === undefined ? undefined : { cause });
