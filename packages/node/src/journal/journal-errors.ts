/** The SQLite effect journal was asked for, but its optional driver is absent or will not load. */
export class SqliteDriverMissingError extends Error {
  readonly code = 'sqlite_driver_missing';
  override readonly name = 'SqliteDriverMissingError';

  constructor(options: { readonly cause?: unknown } = {}) {
    super(
      'toolhost: the SQLite effect journal needs the optional dependency better-sqlite3 (12.x), which is not installed or not built for this Node.js; install it beside @toolhost/node (npm install better-sqlite3@12, or npm rebuild better-sqlite3 after a Node upgrade) and approve its install script, which npm 12 blocks by default (npm install-scripts approve better-sqlite3)',
      options,
    );
  }
}

/** Every way the SQLite journal refuses to open or to act; switch on `code`. */
export type SqliteJournalErrorCode =
  | 'journal_path_unsafe'
  | 'journal_key_missing'
  | 'journal_key_invalid'
  | 'journal_schema_unsupported'
  | 'journal_corrupt'
  | 'journal_claim_exists'
  | 'journal_claim_unknown'
  | 'journal_closed';

const MESSAGES: Readonly<Record<SqliteJournalErrorCode, string>> = {
  journal_path_unsafe:
    'toolhost: the effect journal path (or its -wal, -shm or .key sibling) is a symlink, a hard link or not a regular file, or its directory is missing',
  journal_key_missing:
    'toolhost: the effect journal exists but its .key file is missing; without the key no recorded effect can be matched, so the journal is refused (restore the key or start a new journal file)',
  journal_key_invalid:
    'toolhost: the effect journal key file is not the key this journal was created with',
  journal_schema_unsupported:
    'toolhost: the effect journal was written by a newer toolhost, or is not a toolhost journal; refused',
  journal_corrupt: 'toolhost: the effect journal file is corrupt or not an SQLite database',
  journal_claim_exists: 'toolhost: this call already has a claim in the effect journal',
  journal_claim_unknown: 'toolhost: no unsettled claim with this id in the effect journal',
  journal_closed: 'toolhost: the effect journal is closed',
};

/** The SQLite journal refused to open or to act: a fixed message per code, never a path. */
export class SqliteJournalError extends Error {
  override readonly name = 'SqliteJournalError';

  constructor(
    readonly code: SqliteJournalErrorCode,
    options: { readonly cause?: unknown } = {},
  ) {
    super(MESSAGES[code], options);
  }
}
