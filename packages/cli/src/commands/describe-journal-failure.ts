import { EffectJournalError } from '@toolhost/core';
import { SqliteDriverMissingError, SqliteJournalError } from '@toolhost/node/host';
import { EXIT_CODES } from '../exit-codes.js';
import type { FailureReport } from './describe-failure.js';

const HINTS: Readonly<Partial<Record<EffectJournalError['reason'], string>>> = {
  effect_unresolved:
    'the effect may have happened; `toolhost journal list` shows the claim, `toolhost journal resolve <run> <call> --as done|failed` settles it',
  journal_identity_mismatch:
    'this run already holds the call id under another tool or other arguments: use a new --call-id',
  journal_media_refused:
    'a journaled call cannot return media (a replay could not deliver it); the claim stays unresolved',
};

/**
 * A journal failure as the CLI reports it: `effect_unresolved` has its own exit code (6), so a
 * script can tell "may have happened, nothing ran now" from a failure; every other journal
 * refusal is `tool_failed` (1); a missing SQLite driver is `unavailable` (5). `undefined` for
 * any other error.
 */
export function describeJournalFailure(error: unknown): FailureReport | undefined {
  if (error instanceof EffectJournalError) {
    const hint = HINTS[error.reason];
    return {
      exitCode:
        error.reason === 'effect_unresolved'
          ? EXIT_CODES.effectUnresolved
          : EXIT_CODES.executionFailed,
      code: error.code,
      name: error.name,
      message: error.message,
      reason: error.reason,
      ...(hint === undefined ? {} : { hint }),
    };
  }
  // The optional driver is absent or built for another Node: the message names the fix.
  if (error instanceof SqliteDriverMissingError) {
    return {
      exitCode: EXIT_CODES.unavailable,
      code: error.code,
      name: error.name,
      message: error.message,
    };
  }
  // Raised by the store mid-run (a closed journal, a lost race to prepare): fixed, path-free text.
  if (error instanceof SqliteJournalError) {
    return {
      exitCode: EXIT_CODES.executionFailed,
      code: error.code,
      name: error.name,
      message: error.message,
    };
  }
  return undefined;
}
