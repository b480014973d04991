import { describe, expect, it } from 'vitest';

import { SqliteDriverMissingError } from './journal-errors.js';
import { loadSqliteDriver, type SqliteDriver } from './load-sqlite-driver.js';

describe('loadSqliteDriver', () => {
  it('loads the installed better-sqlite3 and proves its native addon opens a database', async () => {
    const driver = await loadSqliteDriver();

    const database = new driver(':memory:');

    expect(database.prepare('SELECT sqlite_version()').pluck().get()).toMatch(/^3\./);
    database.close();
  });

  it('says what to install when the package is absent, naming no path', async () => {
    const absent = Object.assign(
      new Error("Cannot find package 'better-sqlite3' imported from /x/y.js"),
      {
        code: 'ERR_MODULE_NOT_FOUND',
      },
    );

    const attempt = loadSqliteDriver(() => Promise.reject(absent));

    await expect(attempt).rejects.toBeInstanceOf(SqliteDriverMissingError);
    await expect(attempt).rejects.toMatchObject({
      code: 'sqlite_driver_missing',
      message: expect.stringContaining('npm install better-sqlite3@12'),
      cause: absent,
    });
    await expect(attempt).rejects.not.toThrow('/x/y.js');
  });

  it('refuses a driver whose native addon was built for another Node ABI', async () => {
    const wrongAbi = new Error(
      'The module was compiled against a different Node.js version using NODE_MODULE_VERSION 115',
    );
    const driver = function Database(): never {
      throw wrongAbi;
    } as unknown as SqliteDriver;

    const attempt = loadSqliteDriver(async () => ({ default: driver }));

    await expect(attempt).rejects.toMatchObject({ code: 'sqlite_driver_missing', cause: wrongAbi });
  });
});
