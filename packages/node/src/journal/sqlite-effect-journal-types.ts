import type { EffectJournal } from '@toolhost/core/journal';

/** Where and how durably the SQLite effect journal writes. */
export interface SqliteEffectJournalOptions {
  /** The journal database, created 0600 at exactly this path (never through a symlink). */
  readonly file: string;
  /**
   * `FULL` (the default) syncs the WAL on every commit, so a prepared claim survives a power
   * loss; `NORMAL` survives a process crash but may lose the last commits to a power loss.
   */
  readonly synchronous?: 'FULL' | 'NORMAL';
  /** How long a writer waits for another process's lock before failing; default 5000 ms. */
  readonly busyTimeoutMs?: number;
}

/** A claim prepared and never settled: the effect may or may not have happened. */
export interface UnresolvedClaim {
  readonly runId: string;
  readonly callKey: string;
  readonly toolId: string;
  readonly claimId: string;
  /** ISO 8601. */
  readonly preparedAt: string;
}

/** The embedded effect journal, with the operator's tools beside the engine's four methods. */
export type SqliteEffectJournal = EffectJournal & {
  close(): Promise<void>;
  listUnresolved(filter?: { readonly runId?: string }): Promise<readonly UnresolvedClaim[]>;
  /**
   * An operator's verdict on an unresolved claim: `done` settles it with the operator's
   * resolution record (a replay never runs the effect), `failed` discards it (the call may run
   * again). `not_found` when no unresolved claim has this runId + callKey.
   */
  resolve(runId: string, callKey: string, as: 'done' | 'failed'): Promise<'resolved' | 'not_found'>;
  /** Removes settled records settled longer than `olderThanMs` ago; never an unresolved claim. */
  gc(options: {
    readonly olderThanMs: number;
    readonly now?: number;
  }): Promise<{ readonly removed: number }>;
};
