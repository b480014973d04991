// `@toolhost/node/journal`: the durable effect journals — SQLite (better-sqlite3) and PostgreSQL
// (pg) — and their errors.
export { createSqliteEffectJournal } from './journal/create-sqlite-effect-journal.js';
export type {
  SqliteEffectJournal,
  SqliteEffectJournalOptions,
  UnresolvedClaim,
} from './journal/sqlite-effect-journal-types.js';
export {
  SqliteDriverMissingError,
  SqliteJournalError,
  type SqliteJournalErrorCode,
} from './journal/journal-errors.js';
export { createPostgresEffectJournal } from './journal/postgres/create-postgres-effect-journal.js';
export type {
  PostgresEffectJournal,
  PostgresEffectJournalOptions,
  PostgresPool,
  PostgresPoolClient,
  PostgresQueryable,
  PostgresQueryResult,
} from './journal/postgres/postgres-effect-journal-types.js';
export {
  PostgresDriverMissingError,
  PostgresJournalError,
  type PostgresJournalErrorCode,
} from './journal/postgres/postgres-journal-errors.js';
