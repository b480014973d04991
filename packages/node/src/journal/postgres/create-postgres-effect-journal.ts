import { keyedDigest } from '../journal-key.js';
import { loadPostgresDriver, type PostgresDriver } from './load-postgres-driver.js';
import { postgresEffectJournal } from './postgres-effect-journal.js';
import type {
  PostgresEffectJournal,
  PostgresEffectJournalOptions,
  PostgresPool,
} from './postgres-effect-journal-types.js';
import { resolvePostgresJournalKey } from './postgres-journal-key.js';
import { migratePostgresJournalSchema } from './postgres-journal-schema.js';

const KEY_CHECK_LABEL = 'toolhost effect journal key check';
// Lower-case letters, digits and `_`, as Postgres folds an unquoted name; `pg_` is the system's.
const SCHEMA_NAME = /^(?!pg_)[a-z_][a-z0-9_]{0,62}$/;
// How long a worker waits for a connection before the journal call fails (then: refused, not run).
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Opens (or creates) the shared effect journal on PostgreSQL, for workers on several machines:
 * one row per (run_id, call_key) in `<schema>.effect`. With a connection string it loads the
 * optional peer dependency `pg` on first call (`PostgresDriverMissingError` when it is absent)
 * and owns its pool; with `pool` it uses the embedder's and leaves it open on `close`.
 */
export async function createPostgresEffectJournal(
  options: PostgresEffectJournalOptions,
): Promise<PostgresEffectJournal> {
  return openPostgresEffectJournal(options, loadPostgresDriver);
}

/** `createPostgresEffectJournal` with the driver loaded by `loadDriver` (a seam for tests). */
export async function openPostgresEffectJournal(
  options: PostgresEffectJournalOptions,
  loadDriver: () => Promise<PostgresDriver>,
): Promise<PostgresEffectJournal> {
  const resolved = resolvePostgresJournalOptions(options);
  const { schema, key } = resolved;
  let pool: PostgresPool;
  let end: () => Promise<void>;
  if (resolved.pool === undefined) {
    const owned = new (await loadDriver()).Pool({
      connectionString: resolved.connectionString,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    // An idle connection the server drops emits `error` on the pool; unheard, it would crash
    // the process. The next query reconnects, or fails as journal_unavailable.
    owned.on('error', () => undefined);
    pool = owned;
    end = () => owned.end();
  } else {
    pool = resolved.pool;
    end = async () => undefined;
  }
  try {
    await migratePostgresJournalSchema(pool, schema, keyedDigest(key, KEY_CHECK_LABEL));
  } catch (error) {
    await end().catch(() => undefined);
    throw error;
  }
  return postgresEffectJournal({ pool, schema, key, end });
}

/** Refuses bad options before any connection: the messages name no value (they may be secret). */
function resolvePostgresJournalOptions(
  options: PostgresEffectJournalOptions,
): { readonly schema: string; readonly key: Buffer } & (
  | { readonly connectionString: string; readonly pool?: undefined }
  | { readonly pool: PostgresPool; readonly connectionString?: undefined }
) {
  const { connectionString, pool, schema = 'toolhost' } = options;
  if ((connectionString === undefined) === (pool === undefined)) {
    throw new TypeError(
      'toolhost: the Postgres effect journal takes exactly one of connectionString or pool',
    );
  }
  if (
    connectionString !== undefined &&
    (typeof connectionString !== 'string' || connectionString === '')
  ) {
    throw new TypeError(
      'toolhost: the Postgres effect journal connectionString must be a non-empty string',
    );
  }
  if (
    pool !== undefined &&
    (typeof pool.query !== 'function' || typeof pool.connect !== 'function')
  ) {
    throw new TypeError('toolhost: the Postgres effect journal pool must be a pg Pool');
  }
  if (typeof schema !== 'string' || !SCHEMA_NAME.test(schema)) {
    throw new TypeError(
      'toolhost: the Postgres effect journal schema must be a lower-case identifier (a-z, 0-9, _; at most 63; not pg_)',
    );
  }
  const key = resolvePostgresJournalKey(options.key);
  // Validated above, quoted anyway: the name is only ever interpolated in this form.
  const quoted = `"${schema}"`;
  return pool === undefined
    ? { connectionString: connectionString as string, schema: quoted, key }
    : { pool, schema: quoted, key };
}
