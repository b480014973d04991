import { ToolUnavailableError } from '@toolhost/core';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../exit-codes.js';
import { describeFailure } from './describe-failure.js';

describe('describeFailure of an unavailable tool', () => {
  it.each([
    ['a missing arm', undefined, 'process', /no such arm/],
    ['a sandbox that cannot start', 'sandbox_unavailable', 'sandbox_unavailable', /--sandbox off/],
    [
      'a network allowance without its helper',
      'sandbox_network_unavailable',
      'sandbox_network_unavailable',
      /--sandbox-allow-domain/,
    ],
  ] as const)('exits unavailable with an actionable hint for %s', (_case, reason, shown, hint) => {
    const error = new ToolUnavailableError(
      'run_command',
      'process',
      reason === undefined ? {} : { reason },
    );

    const report = describeFailure(error);

    expect(report).toMatchObject({
      exitCode: EXIT_CODES.unavailable,
      code: 'tool_unavailable',
      reason: shown,
      message: error.message,
    });
    expect(report.hint).toMatch(hint);
  });
});
