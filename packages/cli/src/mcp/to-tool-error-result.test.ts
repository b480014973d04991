import {
  EffectJournalError,
  ToolArgsInvalidError,
  ToolCancelledError,
  ToolDeniedByUserError,
  ToolExecutionError,
  ToolPolicyError,
  UnknownToolError,
} from '@toolhost/core';
import { describe, expect, it } from 'vitest';
import { JsonRpcError, TOOL_ERROR_META_KEY, toToolErrorResult } from './to-tool-error-result.js';

describe('toToolErrorResult', () => {
  it.each([
    [
      'invalid args',
      new ToolArgsInvalidError('read_file', ['path']),
      { code: 'tool_args_invalid', classification: 'correctable' },
    ],
    [
      'a scope escape',
      new ToolPolicyError('read_file', 'scope_escape'),
      { code: 'tool_denied', reason: 'scope_escape', classification: 'recoverable' },
    ],
    [
      'a guardrail denial',
      new ToolPolicyError('run_command', 'command_not_allowed'),
      { code: 'tool_denied', reason: 'command_not_allowed', classification: 'fatal' },
    ],
    [
      'an approval denial',
      new ToolDeniedByUserError('write_file', 'user_rejected', { userReason: 'mode plan' }),
      { code: 'tool_denied', reason: 'user_rejected', classification: 'fatal' },
    ],
    [
      'a host failure',
      new ToolExecutionError('run_command', 'timed_out'),
      { code: 'tool_failed', reason: 'timed_out', classification: 'fatal' },
    ],
    [
      "an MCP tool's isError",
      new ToolExecutionError('mcp_fx_fails', 'tool_reported_error', {
        correctable: true,
        detail: 'out of range',
      }),
      { code: 'tool_failed', reason: 'tool_reported_error', classification: 'correctable' },
    ],
    [
      'a journal refusal',
      new EffectJournalError('write_file', 'effect_unresolved'),
      { code: 'tool_failed', reason: 'effect_unresolved', classification: 'fatal' },
    ],
    [
      'a cancel',
      new ToolCancelledError('run_command'),
      { code: 'cancelled', classification: 'cancelled' },
    ],
  ])('returns %s as a tool error carrying code, reason and classification', (_c, error, info) => {
    const result = toToolErrorResult(error);

    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      { type: 'text', text: expect.stringContaining(error.message) as string },
    ]);
    expect(result._meta?.[TOOL_ERROR_META_KEY]).toMatchObject(info);
    expect(result.structuredContent).toMatchObject(info);
  });

  it('never prefixes the text with a JSON-RPC code', () => {
    const result = toToolErrorResult(new ToolPolicyError('run_command', 'command_not_allowed'));

    expect(JSON.stringify(result)).not.toMatch(/MCP error|-326/);
  });

  it("adds the approver's reason and the CLI's hint, one line each", () => {
    const denied = toToolErrorResult(
      new ToolDeniedByUserError('write_file', 'user_rejected', { userReason: 'rejected' }),
    );
    const failed = toToolErrorResult(new ToolExecutionError('write_file', 'not_found'));

    expect(denied.content).toEqual([
      { type: 'text', text: 'tool write_file denied by approval: user_rejected: rejected' },
    ]);
    expect(failed.content).toEqual([
      {
        type: 'text',
        text: 'tool write_file failed: not_found\nhint: a parent directory does not exist: pass "createDirs": true to create it',
      },
    ]);
  });

  it('names the gate a served call can never pass, not a flag of toolhost call alone', () => {
    const result = toToolErrorResult(new ToolPolicyError('deploy', 'gate_required'));

    expect(JSON.stringify(result.content)).toContain('toolhost serve never gives');
  });

  it('throws an unknown tool as JSON-RPC -32602 with the message once', () => {
    const attempt = () => toToolErrorResult(new UnknownToolError('nosuch', ['read_file']));

    expect(attempt).toThrow(JsonRpcError);
    expect(attempt).toThrow(
      expect.objectContaining({
        code: -32602,
        message: 'unknown tool "nosuch"; available tools: read_file',
      }),
    );
  });

  it('says nothing about an error that is not a dispatch error', () => {
    const result = toToolErrorResult(new Error('/home/me/.ssh/id_rsa leaked in a stack'));

    expect(result.content).toEqual([{ type: 'text', text: 'toolhost: internal error' }]);
    expect(result._meta?.[TOOL_ERROR_META_KEY]).toEqual({
      code: 'internal',
      classification: 'fatal',
    });
    expect(JSON.stringify(result)).not.toMatch(/id_rsa/);
  });
});
