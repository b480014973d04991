import type { EffectJournal } from '@toolhost/core/journal';

import type { UnresolvedClaim } from '../sqlite-effect-journal-types.js';

/** The slice of a `pg` query result the journal reads. */
export interface PostgresQueryResult {
  readonly rows: readonly unknown[];
  readonly rowCount: number | null;
}

/** Anything that runs one parameterised statement: a `pg` Pool or a checked-out client. */
export interface PostgresQueryable {
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>;
}

/** A client checked out of a pool, for the one transaction that needs a single connection. */
export interface PostgresPoolClient extends PostgresQueryable {
  release(destroy?: boolean): void;
}

/** The slice of a `pg` Pool the journal uses; structural, so `@types/pg` is never required. */
export interface PostgresPool extends PostgresQueryable {
  connect(): Promise<PostgresPoolClient>;
}

interface PostgresJournalCommonOptions {
  /** The schema holding the journal's tables, created on first open; default `toolhost`. */
  readonly schema?: string;
  /**
   * The HMAC key for the stored argument digests: 32 bytes, or a hex or base64 string of 32
   * bytes. Every worker of one journal must share it, so it comes from the embedder's secrets,
   * never a local file.
   */
  readonly key: Uint8Array | string;
}

/** Where the Postgres effect journal lives: exactly one of a connection string or a pool. */
export type PostgresEffectJournalOptions = PostgresJournalCommonOptions &
  (
    | {
        /** The journal opens (and `close` ends) its own pool on this database. */
        readonly connectionString: string;
        readonly pool?: never;
      }
    | {
        /** A `pg` Pool the embedder owns: `close` leaves it open. */
        readonly pool: PostgresPool;
        readonly connectionString?: never;
      }
  );

/** The shared effect journal, with the same operator tools as the SQLite one. */
export type PostgresEffectJournal = EffectJournal & {
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
