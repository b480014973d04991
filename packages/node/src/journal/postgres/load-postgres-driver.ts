import { PostgresDriverMissingError } from './postgres-journal-errors.js';
import type { PostgresPool } from './postgres-effect-journal-types.js';

/** A pool the journal opened itself: it ends it, and must hear its idle clients' errors. */
export interface OwnedPostgresPool extends PostgresPool {
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** The slice of the `pg` module the journal uses. */
export interface PostgresDriver {
  readonly Pool: new (config: {
    readonly connectionString: string;
    readonly connectionTimeoutMillis: number;
  }) => OwnedPostgresPool;
}

/**
 * Loads `pg` on first use: it is an optional peer dependency, a host without a shared journal
 * need not install it. `load` is the seam the tests replace.
 */
export async function loadPostgresDriver(
  load: () => Promise<{ readonly default: PostgresDriver }> = () => import('pg'),
): Promise<PostgresDriver> {
  let driver: PostgresDriver | undefined;
  try {
    driver = (await load()).default;
  } catch (error) {
    throw new PostgresDriverMissingError({ cause: error });
  }
  if (typeof driver?.Pool !== 'function') throw new PostgresDriverMissingError();
  return driver;
}
