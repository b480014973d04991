import { timingSafeEqual } from 'node:crypto';

import { asPostgresJournalError, PostgresJournalError } from './postgres-journal-errors.js';
import type { PostgresPool, PostgresQueryable } from './postgres-effect-journal-types.js';

/** The schema version this code writes; a newer one is refused, never guessed at. */
export const POSTGRES_JOURNAL_SCHEMA_VERSION = 1;

// 'THJL': the advisory-lock class of toolhost journals; the object is the schema name's hash.
const MIGRATION_LOCK_CLASS = 0x54_48_4a_4c;

// One row per call: the primary key on (run_id, call_key) is what makes two workers racing to
// prepare the same call unable to both win. Only the keyed digest of the arguments is stored;
// the record is JSON text, not jsonb, so a replay gives back the recorded bytes (key order too).
const schemaV1 = (schema: string): string => `
  CREATE TABLE IF NOT EXISTS ${schema}.effect (
    seq bigint GENERATED ALWAYS AS IDENTITY,
    run_id text NOT NULL,
    call_key text NOT NULL,
    tool_id text NOT NULL,
    args_mac bytea NOT NULL,
    claim_id text NOT NULL UNIQUE,
    state text NOT NULL CHECK (state IN ('prepared', 'settled')),
    record text,
    prepared_at bigint NOT NULL,
    settled_at bigint,
    PRIMARY KEY (run_id, call_key),
    CHECK ((state = 'settled') = (record IS NOT NULL AND settled_at IS NOT NULL))
  );
  CREATE INDEX IF NOT EXISTS effect_settled_at ON ${schema}.effect (settled_at)
    WHERE state = 'settled';
  CREATE INDEX IF NOT EXISTS effect_unresolved ON ${schema}.effect (prepared_at, seq)
    WHERE state = 'prepared';
`;

/**
 * Creates the journal's schema and tables on first open, or checks existing ones: a newer (or
 * unknown) version, another application's tables, a key other than the one the journal was
 * created with, or a database with `synchronous_commit` off are refused. One transaction under
 * an advisory lock, so workers opening one new journal at once create it once; an existing
 * journal is only read, so a worker's role needs no CREATE privilege.
 * `schema` is a validated identifier, already quoted.
 */
export async function migratePostgresJournalSchema(
  pool: PostgresPool,
  schema: string,
  keyCheck: Buffer,
): Promise<void> {
  let client;
  try {
    client = await pool.connect();
  } catch (error) {
    throw asPostgresJournalError(error);
  }
  let broken = false;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [
      MIGRATION_LOCK_CLASS,
      schema,
    ]);
    await refuseAsyncCommit(client);
    await migrate(client, schema, keyCheck);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => (broken = true));
    throw asPostgresJournalError(error);
  } finally {
    // A connection whose rollback failed is in an unknown state: never hand it back to the pool.
    client.release(broken);
  }
}

async function migrate(client: PostgresQueryable, schema: string, keyCheck: Buffer): Promise<void> {
  const meta = `${schema}.journal_meta`;
  if (!(await tableExists(client, meta))) {
    if (await tableExists(client, `${schema}.effect`)) {
      throw new PostgresJournalError('journal_schema_unsupported');
    }
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${meta} (name text PRIMARY KEY, value text NOT NULL)`,
    );
    await client.query(schemaV1(schema));
    await client.query(
      `INSERT INTO ${meta} (name, value) VALUES ('schema_version', $1), ('key_check', $2)`,
      [String(POSTGRES_JOURNAL_SCHEMA_VERSION), keyCheck.toString('hex')],
    );
    return;
  }
  const { rows } = await client.query(`SELECT name, value FROM ${meta}`);
  const values = new Map(
    (rows as readonly { readonly name: string; readonly value: string }[]).map((row) => [
      row.name,
      row.value,
    ]),
  );
  if (values.get('schema_version') !== String(POSTGRES_JOURNAL_SCHEMA_VERSION)) {
    throw new PostgresJournalError('journal_schema_unsupported');
  }
  const stored = Buffer.from(values.get('key_check') ?? '', 'hex');
  if (stored.length !== keyCheck.length || !timingSafeEqual(stored, keyCheck)) {
    throw new PostgresJournalError('journal_key_invalid');
  }
}

async function tableExists(client: PostgresQueryable, name: string): Promise<boolean> {
  const { rows } = await client.query('SELECT to_regclass($1) IS NOT NULL AS found', [name]);
  return (rows[0] as { readonly found: boolean }).found;
}

// With commit acknowledged before the WAL is flushed, `prepare` could resolve and then vanish
// in a server crash: the at-most-once guarantee would be gone without a word.
async function refuseAsyncCommit(client: PostgresQueryable): Promise<void> {
  const { rows } = await client.query("SELECT current_setting('synchronous_commit') AS value");
  if ((rows[0] as { readonly value: string }).value === 'off') {
    throw new PostgresJournalError('journal_not_durable');
  }
}
