import type BetterSqlite3 from 'better-sqlite3';

import { SqliteDriverMissingError } from './journal-errors.js';

/** The better-sqlite3 `Database` constructor. */
export type SqliteDriver = typeof BetterSqlite3;

/**
 * Loads better-sqlite3 on first use: it is an optional dependency, a host without a journal need
 * not install (or compile) it. The native addon only loads on the first `new Database`, so a
 * binary built for another Node ABI would pass the import: an in-memory database proves it here.
 * `load` is the seam the tests replace.
 */
export async function loadSqliteDriver(
  load: () => Promise<{ readonly default: SqliteDriver }> = () => import('better-sqlite3'),
): Promise<SqliteDriver> {
  try {
    const driver = (await load()).default;
    new driver(':memory:').close();
    return driver;
  } catch (error) {
    throw new SqliteDriverMissingError({ cause: error });
  }
}
