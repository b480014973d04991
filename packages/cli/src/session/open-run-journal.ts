// A session's journal and the files it must guard, without loading the driver for other runs.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { SqliteEffectJournal } from '@toolhost/node/host';

/** Where a session's effect journal lives. */
export interface SessionJournalOptions {
  readonly file: string;
  /** The default file in the state directory: its directory is created when missing. */
  readonly createDirectory: boolean;
}

/** An open journal and the files the protected-path rule guards for it. */
export interface OpenedJournal {
  readonly store: SqliteEffectJournal;
  /** The journal and its key: on the write floor of every tool. */
  readonly files: readonly string[];
}

/** Opens the run's journal; the store is closed again if its files cannot be resolved. */
export async function openRunJournal(options: SessionJournalOptions): Promise<OpenedJournal> {
  // Loaded only for a journaled run: the journal's code and its driver are not start-up cost.
  const { journalFiles, openJournal } = await import('./open-journal.js');
  const store = await openJournal(options.file, options);
  try {
    return { store, files: journalFiles(realJournalPath(options.file)) };
  } catch (error) {
    await store.close();
    throw error;
  }
}

// The journal file exists once opened; its directory is resolved so a symlinked state dir matches.
function realJournalPath(file: string): string {
  return path.join(realpathSync(path.dirname(file)), path.basename(file));
}
