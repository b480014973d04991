import { describe, expect, it } from 'vitest';
import {
  classifyToolError,
  EffectJournalError,
  ToolArgsInvalidError,
  ToolCancelledError,
  ToolDeniedByUserError,
  ToolDispatchError,
  ToolExecutionError,
  ToolPolicyError,
  ToolUnavailableError,
  UnknownToolError,
  withToolId,
} from './errors.js';

describe('the error taxonomy', () => {
  it.each<[string, ToolDispatchError, Record<string, unknown>, string]>([
    [
      'UnknownToolError',
      new UnknownToolError('ghost', ['b', 'a']),
      {
        code: 'unknown_tool',
        runErrorCode: 'tool_failed',
        retryable: false,
        recoverable: false,
        availableIds: ['a', 'b'],
      },
      'unknown tool "ghost"; available tools: a, b',
    ],
    [
      'ToolPolicyError',
      new ToolPolicyError('run_command', 'command_not_allowed'),
      {
        code: 'tool_denied',
        runErrorCode: 'tool_denied',
        reason: 'command_not_allowed',
        recoverable: false,
        toolId: 'run_command',
      },
      'tool run_command denied: command_not_allowed',
    ],
    [
      'ToolPolicyError (media_scope_denied)',
      new ToolPolicyError('read_media', 'media_scope_denied'),
      { code: 'tool_denied', recoverable: true },
      'tool read_media denied: media_scope_denied',
    ],
    [
      'ToolDeniedByUserError',
      new ToolDeniedByUserError('write_file', 'user_rejected', { userReason: 'no' }),
      {
        code: 'tool_denied',
        runErrorCode: 'tool_denied',
        reason: 'user_rejected',
        userReason: 'no',
        recoverable: false,
      },
      'tool write_file denied by approval: user_rejected',
    ],
    [
      'ToolArgsInvalidError',
      new ToolArgsInvalidError('read_file', [{ field: 'path', problem: 'invalid_type' }]),
      { code: 'tool_args_invalid', runErrorCode: 'validation', fields: ['path'] },
      'tool read_file args invalid: path (invalid_type)',
    ],
    [
      'ToolPolicyError (governed_block)',
      new ToolPolicyError('http_request', 'governed_block', { guardReason: 'org rule 7' }),
      {
        code: 'tool_denied',
        runErrorCode: 'tool_denied',
        reason: 'governed_block',
        guardReason: 'org rule 7',
        recoverable: false,
      },
      'tool http_request denied: governed_block',
    ],
    [
      'EffectJournalError (effect_unresolved)',
      new EffectJournalError('http_request', 'effect_unresolved'),
      {
        code: 'tool_failed',
        runErrorCode: 'tool_failed',
        reason: 'effect_unresolved',
        retryable: false,
        recoverable: false,
        toolId: 'http_request',
      },
      'tool http_request failed: effect_unresolved',
    ],
    [
      'EffectJournalError (journal_identity_mismatch)',
      new EffectJournalError('write_file', 'journal_identity_mismatch'),
      { code: 'tool_failed', reason: 'journal_identity_mismatch', retryable: false },
      'tool write_file failed: journal_identity_mismatch',
    ],
    [
      'ToolUnavailableError',
      new ToolUnavailableError('notify', 'os'),
      { code: 'tool_unavailable', runErrorCode: 'tool_unavailable', capability: 'os' },
      'tool notify unavailable: the host has no os capability',
    ],
    [
      'ToolUnavailableError',
      new ToolUnavailableError('run_command', 'process', { reason: 'sandbox_unavailable' }),
      {
        code: 'tool_unavailable',
        runErrorCode: 'tool_unavailable',
        capability: 'process',
        reason: 'sandbox_unavailable',
      },
      'tool run_command unavailable: the process sandbox is unavailable (bubblewrap is missing, or the kernel or AppArmor refuses it); install bubblewrap (e.g. apt-get install bubblewrap), or set process sandbox to "off" knowingly',
    ],
    [
      'ToolExecutionError',
      new ToolExecutionError('read_file', 'host_error', {
        recoverable: true,
        cause: new Error('/etc/x'),
      }),
      {
        code: 'tool_failed',
        runErrorCode: 'tool_failed',
        retryable: true,
        recoverable: true,
        reason: 'host_error',
      },
      'tool read_file failed: host_error',
    ],
    [
      'ToolExecutionError (not retryable)',
      new ToolExecutionError('write_file', 'guard_commit_failed', { retryable: false }),
      { code: 'tool_failed', retryable: false, recoverable: false },
      'tool write_file failed: guard_commit_failed',
    ],
    [
      'ToolCancelledError',
      new ToolCancelledError('run_command'),
      { code: 'cancelled', runErrorCode: 'cancelled', retryable: false },
      'tool run_command cancelled',
    ],
  ])('%s has its code, flags and a fixed message', (name, error, fields, message) => {
    expect(error).toBeInstanceOf(ToolDispatchError);
    expect(error.name).toBe(name.split(' ')[0]);
    expect(error).toMatchObject(fields);
    expect(error.message).toBe(message);
  });

  it('lists refused fields in UTF-16 code-unit order, not schema order', () => {
    const error = new ToolArgsInvalidError('t', [
      { field: 'é', problem: 'invalid_type' },
      { field: 'b', problem: 'too_big' },
      { field: 'a.z', problem: 'invalid_type' },
      { field: 'B', problem: 'invalid_type' },
      { field: 'a', problem: 'too_small' },
      { field: 'a', problem: 'invalid_type' },
    ]);

    expect(error.fields).toEqual(['B', 'a', 'a.z', 'b', 'é']);
    expect(error.issues.map((issue) => issue.problem)).toEqual([
      'invalid_type',
      'invalid_type',
      'too_small',
      'invalid_type',
      'too_big',
      'invalid_type',
    ]);
    expect(error.message).toBe(
      'tool t args invalid: B (invalid_type), a (invalid_type), a (too_small), a.z (invalid_type), b (too_big), é (invalid_type)',
    );
  });

  it('keeps the host cause off the message', () => {
    const cause = new Error('ENOENT /home/me/.ssh/id_rsa');

    const error = new ToolExecutionError('read_file', 'not_found', { cause });

    expect(error.cause).toBe(cause);
    expect(error.message).not.toContain('.ssh');
  });

  it.each<[unknown, string]>([
    [new ToolCancelledError(), 'cancelled'],
    [new UnknownToolError('x', []), 'correctable'],
    [new ToolArgsInvalidError('t', ['a']), 'correctable'],
    [new ToolExecutionError('t', 'mcp_error', { correctable: true }), 'correctable'],
    [new ToolExecutionError('t', 'host_error', { recoverable: true }), 'recoverable'],
    [new ToolPolicyError('t', 'media_scope_denied'), 'recoverable'],
    [new ToolPolicyError('t', 'scope_escape', { recoverable: false }), 'fatal'],
    [new ToolPolicyError('t', 'not_granted'), 'fatal'],
    [new ToolPolicyError('t', 'governed_block'), 'fatal'],
    [new ToolDeniedByUserError('t', 'approval_error'), 'fatal'],
    [new ToolUnavailableError('t', 'fs'), 'fatal'],
    [new EffectJournalError('t', 'effect_unresolved'), 'fatal'],
    [new EffectJournalError('t', 'journal_identity_mismatch'), 'fatal'],
    [new Error('raw'), 'fatal'],
  ])('classifies %s as %s', (error, expected) => {
    expect(classifyToolError(error)).toBe(expected);
  });
});

describe('withToolId', () => {
  it.each([
    new ToolPolicyError('a', 'scope_escape'),
    new ToolPolicyError('a', 'scope_escape', { recoverable: false }),
    new ToolPolicyError('a', 'governed_block', { guardReason: 'org rule' }),
    new ToolDeniedByUserError('a', 'user_rejected', { userReason: 'no' }),
    new ToolArgsInvalidError('a', [{ field: 'path', problem: 'invalid_type' }]),
    new ToolUnavailableError('a', 'fs'),
    new ToolUnavailableError('a', 'process', { reason: 'sandbox_unavailable' }),
    new ToolExecutionError('a', 'tool_reported_error', { correctable: true, detail: 'd' }),
    new ToolExecutionError('a', 'guard_commit_failed', { retryable: false }),
    new ToolCancelledError('a'),
  ])('re-stamps %s keeping its class, discriminant and flags', (error) => {
    const stamped = withToolId(error, 'b');

    expect(stamped).toBeInstanceOf(error.constructor);
    expect(stamped).toMatchObject({
      toolId: 'b',
      code: error.code,
      recoverable: error.recoverable,
      retryable: error.retryable,
      cause: error,
    });
    expect(stamped).toMatchObject(
      error instanceof ToolPolicyError && error.guardReason !== undefined
        ? { guardReason: error.guardReason }
        : {},
    );
    expect(stamped.message).toBe(error.message.replace('tool a', 'tool b'));
  });

  it('returns the same error when the id already matches', () => {
    const error = new ToolPolicyError('a', 'not_granted');

    expect(withToolId(error, 'a')).toBe(error);
  });
});
