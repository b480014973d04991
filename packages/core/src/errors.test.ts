import { describe, expect, it } from 'vitest';
import {
  classifyToolError,
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
      { code: 'tool_args_invalid', runErrorCode: 'tool_failed', fields: ['path'] },
      'tool read_file args invalid: path (invalid_type)',
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
    [new ToolPolicyError('t', 'not_granted'), 'fatal'],
    [new ToolDeniedByUserError('t', 'approval_error'), 'fatal'],
    [new ToolUnavailableError('t', 'fs'), 'fatal'],
    [new Error('raw'), 'fatal'],
  ])('classifies %s as %s', (error, expected) => {
    expect(classifyToolError(error)).toBe(expected);
  });
});

describe('withToolId', () => {
  it.each([
    new ToolPolicyError('a', 'scope_escape'),
    new ToolDeniedByUserError('a', 'user_rejected', { userReason: 'no' }),
    new ToolArgsInvalidError('a', [{ field: 'path', problem: 'invalid_type' }]),
    new ToolUnavailableError('a', 'fs'),
    new ToolUnavailableError('a', 'process', { reason: 'sandbox_unavailable' }),
    new ToolExecutionError('a', 'tool_reported_error', { correctable: true, detail: 'd' }),
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
    expect(stamped.message).toBe(error.message.replace('tool a', 'tool b'));
  });

  it('returns the same error when the id already matches', () => {
    const error = new ToolPolicyError('a', 'not_granted');

    expect(withToolId(error, 'a')).toBe(error);
  });
});
