import { createHmac, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, open, unlink } from 'node:fs/promises';
import path from 'node:path';

import { SqliteJournalError } from './journal-errors.js';
import { JOURNAL_FILE_MODE, openPrivateFile } from './prepare-journal-files.js';

const KEY_BYTES = 32;

/**
 * Reads the journal's HMAC key from `<file>.key`, creating it (32 random bytes, 0600) only for a
 * journal never initialised: a missing key beside a journal with content is refused, since a
 * fresh key would silently match nothing. Two processes creating one journal at once publish
 * the key with link(2), which fails on an existing name: both end with the winner's key.
 */
export async function readOrCreateJournalKey(
  file: string,
  { journalIsNew }: { readonly journalIsNew: boolean },
): Promise<Buffer> {
  const keyFile = `${file}.key`;
  const existing = await readKey(keyFile);
  if (existing !== undefined) return existing;
  if (!journalIsNew) throw new SqliteJournalError('journal_key_missing');
  await publishNewKey(keyFile);
  const published = await readKey(keyFile);
  if (published === undefined) throw new SqliteJournalError('journal_key_missing');
  return published;
}

/** The keyed digest stored for an argsDigest: the engine's digest never reaches the disk. */
export function keyedDigest(key: Buffer, value: string): Buffer {
  return createHmac('sha256', key).update(value, 'utf8').digest();
}

async function readKey(keyFile: string): Promise<Buffer | undefined> {
  // A racing creator's link(2) leaves its temporary name for a moment: wait that out.
  for (let attempt = 0; ; attempt += 1) {
    const key = await readKeyOnce(keyFile, attempt < 50);
    if (key !== 'linked') return key;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function readKeyOnce(
  keyFile: string,
  waitForLink: boolean,
): Promise<Buffer | undefined | 'linked'> {
  let handle;
  try {
    handle = await open(keyFile, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SqliteJournalError('journal_path_unsafe', { cause: error });
  }
  try {
    const stats = await handle.stat();
    if (stats.isFile() && stats.nlink === 2 && waitForLink) return 'linked';
    if (!stats.isFile() || stats.nlink !== 1) throw new SqliteJournalError('journal_path_unsafe');
    if ((stats.mode & 0o777) !== JOURNAL_FILE_MODE) await handle.chmod(JOURNAL_FILE_MODE);
    const key = await handle.readFile();
    if (key.length !== KEY_BYTES) throw new SqliteJournalError('journal_key_invalid');
    return key;
  } finally {
    await handle.close();
  }
}

async function publishNewKey(keyFile: string): Promise<void> {
  const temporary = path.join(
    path.dirname(keyFile),
    `.${path.basename(keyFile)}.${randomBytes(8).toString('hex')}.tmp`,
  );
  await openPrivateFile(temporary);
  try {
    const handle = await open(temporary, constants.O_WRONLY | constants.O_NOFOLLOW);
    try {
      await handle.writeFile(randomBytes(KEY_BYTES));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await link(temporary, keyFile).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST')
        throw new SqliteJournalError('journal_path_unsafe', { cause: error });
    });
    await syncDirectory(path.dirname(keyFile));
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}

// The key's directory entry must be durable before any record keyed with it is.
async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
