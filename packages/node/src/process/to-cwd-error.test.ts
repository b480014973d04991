import { describe, expect, it } from 'vitest';
import { ToolExecutionError, ToolPolicyError } from '@toolhost/core';
import { toCwdError } from './to-cwd-error.js';

describe('toCwdError', () => {
  it.each([
    ['the jail scope escape', new ToolPolicyError('run_command', 'scope_escape'), 'scope_escape'],
    [
      'a recoverable read failure',
      new ToolExecutionError('run_command', 'not_a_directory', { recoverable: true }),
      'not_a_directory',
    ],
    [
      'a raw ENOENT',
      Object.assign(new Error('ENOENT /home/me/app/x'), { code: 'ENOENT' }),
      'not_found',
    ],
    ['a floor hit', new ToolPolicyError('run_command', 'protected_path'), 'protected_path'],
  ])('keeps the reason of %s and never makes it recoverable', (_case, error, reason) => {
    const mapped = toCwdError('run_command', error);

    expect(mapped).toMatchObject({ reason, recoverable: false, toolId: 'run_command' });
    expect(mapped.message).not.toContain('/home');
  });
});
