import { describe, expect, it } from 'vitest';

import { openPostgresEffectJournal } from './create-postgres-effect-journal.js';
import { loadPostgresDriver } from './load-postgres-driver.js';
import { PostgresDriverMissingError } from './postgres-journal-errors.js';

describe('loadPostgresDriver', () => {
  it('loads the installed pg and its Pool', async () => {
    const driver = await loadPostgresDriver();

    expect(typeof driver.Pool).toBe('function');
  });

  it('says what to install when pg is absent, naming no path', async () => {
    const absent = Object.assign(new Error("Cannot find package 'pg' imported from /x/y.js"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });

    const attempt = loadPostgresDriver(() => Promise.reject(absent));

    await expect(attempt).rejects.toBeInstanceOf(PostgresDriverMissingError);
    await expect(attempt).rejects.toMatchObject({
      code: 'postgres_driver_missing',
      message: expect.stringContaining('npm install pg@8'),
      cause: absent,
    });
    await expect(attempt).rejects.not.toThrow('/x/y.js');
  });

  it('refuses a module without a Pool', async () => {
    const attempt = loadPostgresDriver(async () => ({ default: {} as never }));

    await expect(attempt).rejects.toMatchObject({ code: 'postgres_driver_missing' });
  });

  it('fails createPostgresEffectJournal with the typed error when pg is absent', async () => {
    const missing = (): Promise<never> => Promise.reject(new PostgresDriverMissingError());

    const attempt = openPostgresEffectJournal(
      { connectionString: 'postgresql://127.0.0.1/x', key: new Uint8Array(32) },
      missing,
    );

    await expect(attempt).rejects.toMatchObject({ code: 'postgres_driver_missing' });
  });

  it('never loads pg for an embedder-owned pool', async () => {
    let loads = 0;
    const pool = {
      query: () => Promise.reject(new Error('no database here')),
      connect: () => Promise.reject(new Error('no database here')),
    };

    const attempt = openPostgresEffectJournal({ pool, key: new Uint8Array(32) }, async () => {
      loads += 1;
      throw new PostgresDriverMissingError();
    });

    await expect(attempt).rejects.toMatchObject({ code: 'journal_unavailable' });
    expect(loads).toBe(0);
  });
});
