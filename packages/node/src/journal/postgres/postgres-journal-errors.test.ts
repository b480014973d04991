import { describe, expect, it } from 'vitest';

import {
  asPostgresJournalError,
  PostgresJournalError,
  type PostgresJournalErrorCode,
} from './postgres-journal-errors.js';

const CODES: readonly PostgresJournalErrorCode[] = [
  'journal_unavailable',
  'journal_not_durable',
  'journal_key_invalid',
  'journal_schema_unsupported',
  'journal_corrupt',
  'journal_claim_exists',
  'journal_claim_unknown',
  'journal_closed',
];

describe('PostgresJournalError', () => {
  it.each(CODES)('gives %s a fixed toolhost message of its own', (code) => {
    const error = new PostgresJournalError(code);

    expect(error).toMatchObject({ name: 'PostgresJournalError', code });
    expect(error.message).toMatch(/^toolhost: /);
    expect(
      CODES.filter((other) => new PostgresJournalError(other).message === error.message),
    ).toEqual([code]);
  });

  it('wraps a driver error as journal_unavailable, its text kept only on cause', () => {
    const driverError = new Error(
      'password authentication failed for user "agent" at db.internal:5432',
    );

    const error = asPostgresJournalError(driverError);

    expect(error).toMatchObject({ code: 'journal_unavailable', cause: driverError });
    expect(error.message).not.toMatch(/agent|db\.internal|5432/);
  });

  it('passes its own errors through unchanged', () => {
    const own = new PostgresJournalError('journal_key_invalid');

    expect(asPostgresJournalError(own)).toBe(own);
  });
});
