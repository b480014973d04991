import { EffectJournalError, type EffectJournalErrorReason } from '@toolhost/core';
import { SqliteDriverMissingError, SqliteJournalError } from '@toolhost/node/journal';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../exit-codes.js';
import { describeFailure } from './describe-failure.js';

describe('describeFailure of the effect journal', () => {
  it.each<[EffectJournalErrorReason, number, RegExp | undefined]>([
    ['effect_unresolved', EXIT_CODES.effectUnresolved, /toolhost journal resolve/],
    ['journal_identity_mismatch', EXIT_CODES.executionFailed, /new --call-id/],
    ['journal_media_refused', EXIT_CODES.executionFailed, /cannot return media/],
    ['journal_unavailable', EXIT_CODES.executionFailed, undefined],
    ['journal_args_unencodable', EXIT_CODES.executionFailed, undefined],
    ['journal_record_invalid', EXIT_CODES.executionFailed, undefined],
  ])('reports %s with exit %i', (reason, exitCode, hint) => {
    const error = new EffectJournalError('write_file', reason);

    const report = describeFailure(error);

    expect(report).toMatchObject({
      exitCode,
      code: 'tool_failed',
      name: 'EffectJournalError',
      reason,
      message: 'tool write_file failed: ' + reason,
    });
    if (hint === undefined) expect(report.hint).toBeUndefined();
    else expect(report.hint).toMatch(hint);
  });

  it('reports a missing driver as unavailable (exit 5), naming the fix', () => {
    const report = describeFailure(new SqliteDriverMissingError({ cause: new Error('/a/path') }));

    expect(report).toMatchObject({
      exitCode: EXIT_CODES.unavailable,
      code: 'sqlite_driver_missing',
      message: expect.stringContaining('npm install better-sqlite3@12'),
    });
    expect(report.message).not.toContain('/a/path');
  });

  it("reports the store's own refusal by its fixed message, not as an internal error", () => {
    const report = describeFailure(new SqliteJournalError('journal_claim_exists'));

    expect(report).toMatchObject({
      exitCode: EXIT_CODES.executionFailed,
      code: 'journal_claim_exists',
      name: 'SqliteJournalError',
    });
  });
});
