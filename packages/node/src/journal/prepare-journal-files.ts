import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

import { SqliteJournalError } from './journal-errors.js';

/** Owner read/write only: a record holds tool results, the key unlocks every digest. */
export const JOURNAL_FILE_MODE = 0o600;

/**
 * Creates (or opens) the journal file and its -wal and -shm siblings at exactly `file`, mode
 * 0600, each refused when it is a symlink, a hard link or not a regular file: SQLite follows a
 * symlink, and a planted one would aim the journal (and its records) at another file. SQLite
 * gives a -wal or -shm it recreates later the database file's mode. Returns whether the
 * database file was empty (a journal never initialised).
 */
export async function prepareJournalFiles(file: string): Promise<{ readonly empty: boolean }> {
  const database = await openPrivateFile(file);
  await openPrivateFile(`${file}-wal`);
  await openPrivateFile(`${file}-shm`);
  return { empty: database.size === 0 };
}

/** Opens `file` (creating it 0600) without following a symlink; tightens a wider mode. */
export async function openPrivateFile(file: string): Promise<{ readonly size: number }> {
  const flags = constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW;
  let handle;
  try {
    handle = await open(file, flags, JOURNAL_FILE_MODE);
  } catch (error) {
    // ELOOP: a symlink; ENOENT: the directory is missing; ENXIO/EISDIR: a socket, a directory.
    throw new SqliteJournalError('journal_path_unsafe', { cause: error });
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile() || stats.nlink !== 1) throw new SqliteJournalError('journal_path_unsafe');
    if ((stats.mode & 0o777) !== JOURNAL_FILE_MODE) await handle.chmod(JOURNAL_FILE_MODE);
    return { size: stats.size };
  } finally {
    await handle.close();
  }
}
