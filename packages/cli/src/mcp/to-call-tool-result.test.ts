import { McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  markUntrusted,
  ToolArgsInvalidError,
  ToolDeniedByUserError,
  ToolExecutionError,
  ToolPolicyError,
} from '@toolhost/core';
import { describe, expect, it } from 'vitest';
import { toCallToolFailure, toCallToolResult } from './to-call-tool-result.js';

describe('toCallToolResult', () => {
  it('carries a string as is, bulk text raw under its header, anything else as JSON', () => {
    const text = toCallToolResult({
      toolResult: markUntrusted({ type: 'tool_result', result: 'plain' }),
    });
    const json = toCallToolResult({
      toolResult: markUntrusted({ type: 'tool_result', result: { a: 1 } }),
    });

    expect(text.content).toEqual([{ type: 'text', text: 'plain' }]);
    expect(json.content).toEqual([{ type: 'text', text: '{"a":1}' }]);
    const rendered = toCallToolResult({
      toolResult: markUntrusted({ type: 'tool_result', result: { exitCode: 0, stdout: 'a\nb\n' } }),
    });
    expect(rendered.content).toEqual([
      { type: 'text', text: '{\n  "exitCode": 0\n}\n===== stdout =====\na\nb\n' },
    ]);
  });
});

describe('toCallToolFailure', () => {
  it.each([
    ['invalid args', new ToolArgsInvalidError('read_file', ['path'])],
    ['a scope escape', new ToolPolicyError('read_file', 'scope_escape')],
    [
      "an MCP tool's isError",
      new ToolExecutionError('mcp_fx_fails', 'tool_reported_error', {
        correctable: true,
        detail: 'out of range',
      }),
    ],
  ])('returns %s as an isError result', (_case, error) => {
    const result = toCallToolFailure(error);

    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain(error.message);
  });

  it.each([
    ['a guardrail denial', new ToolPolicyError('run_command', 'command_not_allowed')],
    [
      'an approval denial',
      new ToolDeniedByUserError('write_file', 'user_rejected', { userReason: 'mode plan' }),
    ],
    ['a host failure', new ToolExecutionError('run_command', 'timed_out')],
  ])('throws %s as a JSON-RPC error with its fixed message', (_case, error) => {
    const attempt = () => toCallToolFailure(error);

    expect(attempt).toThrow(McpError);
    expect(attempt).toThrow(error.message);
  });

  it('says nothing about an error that is not a dispatch error', () => {
    const attempt = () => toCallToolFailure(new Error('/home/me/.ssh/id_rsa leaked in a stack'));

    expect(attempt).toThrow('toolhost: internal error');
    expect(attempt).not.toThrow(/id_rsa/);
  });
});
