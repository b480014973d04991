import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { SqliteJournalError, type SqliteEffectJournal } from '@toolhost/node/host';
import { CliUsageError } from '../cli-error.js';

/** The journal file name inside the state directory, when `--journal` is not given. */
export const DEFAULT_JOURNAL_FILE = 'journal.sqlite';

/** Where a journal file and the files the store keeps beside it live. */
export function journalFiles(file: string): readonly string[] {
  return [file, `${file}-wal`, `${file}-shm`, `${file}.key`];
}

/** `--journal` as given (relative to the cwd), else `<stateDir>/journal.sqlite`. */
export function resolveJournalFile(
  journal: string | undefined,
  stateDir: string,
  cwd: string,
): { readonly file: string; readonly isDefault: boolean } {
  return journal === undefined
    ? { file: path.join(stateDir, DEFAULT_JOURNAL_FILE), isDefault: true }
    : { file: path.resolve(cwd, journal), isDefault: false };
}

/**
 * Opens the SQLite effect journal for a command: the default one's state directory is created
 * (owner-only) first. Failures carry fixed, path-free messages: a refused file is a usage error
 * (exit 2); a missing driver stays `SqliteDriverMissingError` (exit 5, its message names the fix).
 */
export async function openJournal(
  file: string,
  options: { readonly createDirectory: boolean },
): Promise<SqliteEffectJournal> {
  if (options.createDirectory) {
    try {
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'uncreatable';
      throw new CliUsageError(`--state-dir: cannot create the state directory (${code})`);
    }
  }
  try {
    // The store's code loads with the first journaled command, never at every start.
    const { createSqliteEffectJournal } = await import('@toolhost/node/journal');
    return await createSqliteEffectJournal({ file });
  } catch (error) {
    throw toJournalCliError(error);
  }
}

/**
 * The CLI's error for a journal that would not open: a refused file is a usage error; a missing
 * driver (reported as `unavailable`, exit 5) and anything else pass through.
 */
export function toJournalCliError(error: unknown): unknown {
  if (error instanceof SqliteJournalError) {
    // The store's messages are fixed templates without a path.
    return error.code === 'journal_closed' || error.code === 'journal_claim_exists'
      ? error
      : new CliUsageError(`--journal: ${error.message.replace(/^toolhost: /, '')}`);
  }
  return error;
}
