import path from 'node:path';

import { SqliteJournalError } from './journal-errors.js';
import { keyedDigest, readOrCreateJournalKey } from './journal-key.js';
import { migrateJournalSchema } from './journal-schema.js';
import { loadSqliteDriver, type SqliteDriver } from './load-sqlite-driver.js';
import { prepareJournalFiles } from './prepare-journal-files.js';
import { sqliteEffectJournal } from './sqlite-effect-journal.js';
import type {
  SqliteEffectJournal,
  SqliteEffectJournalOptions,
} from './sqlite-effect-journal-types.js';

const KEY_CHECK_LABEL = 'toolhost effect journal key check';

/**
 * Opens (or creates) the embedded effect journal: SQLite in WAL mode, `synchronous=FULL` by
 * default, one row per (run_id, call_key). Loads the optional better-sqlite3 driver on first
 * call (`SqliteDriverMissingError` when it is absent or built for another Node).
 */
export async function createSqliteEffectJournal(
  options: SqliteEffectJournalOptions,
): Promise<SqliteEffectJournal> {
  return openSqliteEffectJournal(options, await loadSqliteDriver());
}

// `createSqliteEffectJournal` on a given driver. Not exported: its signature names better-sqlite3's
// types, an optional dependency's, which a public `.d.ts` must not (a consumer without them, or
// with `skipLibCheck: false`, would fail to typecheck).
async function openSqliteEffectJournal(
  options: SqliteEffectJournalOptions,
  driver: SqliteDriver,
): Promise<SqliteEffectJournal> {
  const { file, synchronous, busyTimeoutMs } = resolveJournalOptions(options);
  const { empty } = await prepareJournalFiles(file);
  const key = await readOrCreateJournalKey(file, { journalIsNew: empty });
  let database;
  try {
    database = new driver(file, { timeout: busyTimeoutMs });
  } catch (error) {
    throw asJournalError(error);
  }
  try {
    // WAL: readers never block the writer, and a commit is one append + (FULL) one fsync.
    if (database.pragma('journal_mode = WAL', { simple: true }) !== 'wal') {
      throw new SqliteJournalError('journal_corrupt');
    }
    database.pragma(`synchronous = ${synchronous}`);
    database.pragma('trusted_schema = OFF');
    migrateJournalSchema(database, keyedDigest(key, KEY_CHECK_LABEL));
    return sqliteEffectJournal(database, key);
  } catch (error) {
    database.close();
    throw asJournalError(error);
  }
}

/** Fills defaults and refuses bad options before any file is touched. */
function resolveJournalOptions(options: SqliteEffectJournalOptions): {
  readonly file: string;
  readonly synchronous: 'FULL' | 'NORMAL';
  readonly busyTimeoutMs: number;
} {
  const { file, synchronous = 'FULL', busyTimeoutMs = 5_000 } = options;
  if (typeof file !== 'string' || file.trim() === '') {
    throw new TypeError('toolhost: the effect journal needs a file path');
  }
  if (synchronous !== 'FULL' && synchronous !== 'NORMAL') {
    throw new TypeError("toolhost: synchronous is 'FULL' or 'NORMAL'");
  }
  if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0 || busyTimeoutMs > 0x7fffffff) {
    throw new TypeError('toolhost: busyTimeoutMs must be a non-negative integer');
  }
  return { file: path.resolve(file), synchronous, busyTimeoutMs };
}

// SQLite's own words for a damaged file; its other errors carry no path and pass through.
function asJournalError(error: unknown): unknown {
  const code = (error as { readonly code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^SQLITE_(NOTADB|CORRUPT)/.test(code)) {
    return new SqliteJournalError('journal_corrupt', { cause: error });
  }
  return error;
}
