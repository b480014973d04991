import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { findPostgresBin, hasPostgres, startPostgres } from './start-postgres.js';

describe('findPostgresBin and hasPostgres', () => {
  let base = '';
  beforeEach(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'toolhost-pg-bin-'));
  });
  afterEach(() => rm(base, { recursive: true, force: true }));
  const install = async (version: string, binaries: readonly string[]): Promise<void> => {
    await mkdir(path.join(base, version, 'bin'), { recursive: true });
    for (const binary of binaries) {
      await writeFile(path.join(base, version, 'bin', binary), '');
      await chmod(path.join(base, version, 'bin', binary), 0o755);
    }
  };

  it('picks the newest complete version, by number not by text', async () => {
    await install('9', ['initdb', 'postgres']);
    await install('15', ['initdb', 'postgres']);
    await install('16', ['psql']);

    expect(findPostgresBin(base)).toBe(path.join(base, '15', 'bin'));
  });

  it('skips without binaries, but fails under CI', () => {
    const missing = path.join(base, 'none');

    expect(hasPostgres({ installRoot: missing, env: {} })).toBe(false);
    expect(() => hasPostgres({ installRoot: missing, env: { CI: 'true' } })).toThrow(
      /CI needs PostgreSQL/,
    );
  });
});

describe.skipIf(!hasPostgres())('startPostgres', () => {
  it('serves on loopback until stopped, then frees its port', async () => {
    const server = await startPostgres();
    const client = new pg.Client({ connectionString: server.connectionString });
    await client.connect();
    const { rows } = await client.query<{ address: string | null }>(
      'SELECT inet_server_addr()::text AS address',
    );
    await client.end();

    await server.stop();
    const after = new pg.Client({ connectionString: server.connectionString });
    const refused = await after.connect().catch((error: unknown) => error);

    expect(rows[0]?.address).toBe('127.0.0.1/32');
    expect(refused).toMatchObject({ code: 'ECONNREFUSED' });
  });
});
