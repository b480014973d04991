/** The Postgres effect journal was asked for, but its optional peer dependency `pg` is absent. */
export class PostgresDriverMissingError extends Error {
  readonly code = 'postgres_driver_missing';
  override readonly name = 'PostgresDriverMissingError';

  constructor(options: { readonly cause?: unknown } = {}) {
    super(
      'toolhost: the Postgres effect journal needs the optional peer dependency pg (8.x), which is not installed or will not load; install it beside @toolhost/node (npm install pg@8)',
      options,
    );
  }
}

/** Every way the Postgres journal refuses to open or to act; switch on `code`. */
export type PostgresJournalErrorCode =
  | 'journal_unavailable'
  | 'journal_not_durable'
  | 'journal_key_invalid'
  | 'journal_schema_unsupported'
  | 'journal_corrupt'
  | 'journal_claim_exists'
  | 'journal_claim_unknown'
  | 'journal_closed';

const MESSAGES: Readonly<Record<PostgresJournalErrorCode, string>> = {
  journal_unavailable:
    'toolhost: the Postgres effect journal could not reach its database or the database refused a statement (the driver error is on cause)',
  journal_not_durable:
    'toolhost: the Postgres effect journal database has synchronous_commit off, so a prepared claim could be lost after it was reported durable; refused',
  journal_key_invalid:
    'toolhost: the Postgres effect journal key is not the key this journal was created with',
  journal_schema_unsupported:
    'toolhost: the Postgres effect journal schema was written by a newer toolhost, or is not a toolhost journal; refused',
  journal_corrupt: 'toolhost: a record in the Postgres effect journal is not a JSON object',
  journal_claim_exists: 'toolhost: this call already has a claim in the effect journal',
  journal_claim_unknown: 'toolhost: no unsettled claim with this id in the effect journal',
  journal_closed: 'toolhost: the effect journal is closed',
};

/**
 * The Postgres journal refused to open or to act: a fixed message per code, never the
 * connection string, a host or a value; the driver's own error rides on `cause`, for logs.
 */
export class PostgresJournalError extends Error {
  override readonly name = 'PostgresJournalError';

  constructor(
    readonly code: PostgresJournalErrorCode,
    options: { readonly cause?: unknown } = {},
  ) {
    super(MESSAGES[code], options);
  }
}

/** A driver error as the journal's own: its text (a host, a user, a value) stays on `cause`. */
export function asPostgresJournalError(error: unknown): PostgresJournalError {
  if (error instanceof PostgresJournalError) return error;
  return new PostgresJournalError('journal_unavailable', { cause: error });
}
