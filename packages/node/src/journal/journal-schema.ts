import { timingSafeEqual } from 'node:crypto';

import type BetterSqlite3 from 'better-sqlite3';

import { SqliteJournalError } from './journal-errors.js';

/** The schema this code writes (`PRAGMA user_version`); a newer one is refused, never guessed at. */
export const JOURNAL_SCHEMA_VERSION = 1;

/** 'THJL' in the header's application_id: this file is a toolhost effect journal. */
export const JOURNAL_APPLICATION_ID = 0x54_48_4a_4c;

// One row per call: the primary key on (run_id, call_key) is what makes two processes racing to
// prepare the same call unable to both win. Only the keyed digest of the arguments is stored.
const SCHEMA_V1 = `
  CREATE TABLE effect (
    run_id TEXT NOT NULL,
    call_key TEXT NOT NULL,
    tool_id TEXT NOT NULL,
    args_mac BLOB NOT NULL,
    claim_id TEXT NOT NULL UNIQUE,
    state TEXT NOT NULL CHECK (state IN ('prepared', 'settled')),
    record TEXT,
    prepared_at INTEGER NOT NULL,
    settled_at INTEGER,
    PRIMARY KEY (run_id, call_key),
    CHECK ((state = 'settled') = (record IS NOT NULL AND settled_at IS NOT NULL))
  ) STRICT;
  CREATE INDEX effect_settled_at ON effect (settled_at) WHERE state = 'settled';
  CREATE TABLE journal_meta (name TEXT PRIMARY KEY, value BLOB NOT NULL) STRICT;
`;

/**
 * Creates the schema in an empty file, or checks an existing one: another application's
 * database, a newer (or unknown) version, or a key other than the one the journal was created
 * with are refused. Runs in an IMMEDIATE transaction, so two processes opening one new file
 * create it once.
 */
export function migrateJournalSchema(database: BetterSqlite3.Database, keyCheck: Buffer): void {
  database
    .transaction(() => {
      const applicationId = database.pragma('application_id', { simple: true });
      const version = database.pragma('user_version', { simple: true });
      if (applicationId === 0 && version === 0) {
        const objects = database.prepare('SELECT count(*) FROM sqlite_schema').pluck().get();
        if (objects !== 0) throw new SqliteJournalError('journal_schema_unsupported');
        database.exec(SCHEMA_V1);
        database
          .prepare("INSERT INTO journal_meta (name, value) VALUES ('key_check', ?)")
          .run(keyCheck);
        database.pragma(`application_id = ${JOURNAL_APPLICATION_ID}`);
        database.pragma(`user_version = ${JOURNAL_SCHEMA_VERSION}`);
        return;
      }
      if (applicationId !== JOURNAL_APPLICATION_ID || version !== JOURNAL_SCHEMA_VERSION) {
        throw new SqliteJournalError('journal_schema_unsupported');
      }
      const stored: unknown = database
        .prepare("SELECT value FROM journal_meta WHERE name = 'key_check'")
        .pluck()
        .get();
      if (!(stored instanceof Buffer) || !equalBytes(stored, keyCheck)) {
        throw new SqliteJournalError('journal_key_invalid');
      }
    })
    .immediate();
}

function equalBytes(left: Buffer, right: Buffer): boolean {
  return left.length === right.length && timingSafeEqual(left, right);
}
