import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { CliUsageError } from '../cli-error.js';
import type { EffectiveSettings } from '../config/resolve-settings.js';
import { resolveJournalFile } from '../session/open-journal.js';

/** The journal flags of `toolhost call`, as commander parsed them. */
export interface CallJournalFlags {
  readonly journal?: string;
  readonly runId?: string;
  readonly callId?: string;
}

/** A journaled call: where its journal is, which run it belongs to, and its key in that run. */
export interface CallJournal {
  readonly file: string;
  readonly createDirectory: boolean;
  readonly runId: string;
  readonly callId: string;
}

// The host's own run id shape (it names the run's spill directory); a call id may be longer,
// as providers' tool-call ids are, but stays a plain token a shell and a hint can carry.
const RUN_ID = /^[A-Za-z0-9_-]{1,64}$/;
const CALL_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * `--run-id` turns journaling on (`--journal` defaults to `<stateDir>/journal.sqlite`), and then
 * `--call-id` is required: the call key is what makes a re-run a replay, so a journaled call
 * without one could never be recognised again. Refuses a journal inside the workspace root,
 * where a tool could rewrite a record that is then replayed as a real result.
 */
export function resolveCallJournal(
  flags: CallJournalFlags,
  settings: Pick<EffectiveSettings, 'root' | 'stateDir'>,
  cwd: string,
): CallJournal | undefined {
  const { journal, runId, callId } = flags;
  if (runId === undefined) {
    if (journal !== undefined) throw new CliUsageError('--journal needs --run-id and --call-id');
    if (callId !== undefined) throw new CliUsageError('--call-id needs --run-id');
    return undefined;
  }
  if (!RUN_ID.test(runId)) throw new CliUsageError('--run-id takes 1-64 of [A-Za-z0-9_-]');
  if (callId === undefined) {
    throw new CliUsageError('--run-id needs --call-id: the call id is what a re-run replays by');
  }
  if (!CALL_ID.test(callId)) throw new CliUsageError('--call-id takes 1-128 of [A-Za-z0-9_-]');
  const { file, isDefault } = resolveJournalFile(journal, settings.stateDir, cwd);
  if (isInside(file, settings.root)) {
    throw new CliUsageError(
      '--journal must be outside the workspace root: a tool there could rewrite what is replayed',
    );
  }
  return { file, createDirectory: isDefault, runId, callId };
}

// Judged on the real directory when it exists: a symlink must not carry the journal inside.
function isInside(file: string, root: string): boolean {
  const directory = path.dirname(file);
  const real = existsSync(directory) ? realpathSync(directory) : directory;
  const relative = path.relative(root, path.join(real, path.basename(file)));
  return relative === '' || (relative.split(path.sep)[0] !== '..' && !path.isAbsolute(relative));
}
