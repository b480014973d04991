import {
  EffectJournalError,
  ToolArgsInvalidError,
  ToolCancelledError,
  ToolDeniedByUserError,
  ToolExecutionError,
  ToolPolicyError,
  ToolUnavailableError,
  UnknownToolError,
  classifyToolError,
  type ToolDispatchError,
} from '@toolhost/core';
import { describe, expect, it } from 'vitest';

import { decodeDispatchError, encodeDispatchError, statusOf } from './dispatch-error-codec.js';

const cases: readonly [string, ToolDispatchError][] = [
  ['unknown tool', new UnknownToolError('wrtie_file', ['write_file', 'read_file'])],
  ['policy', new ToolPolicyError('read_file', 'protected_path')],
  ['scope escape', new ToolPolicyError('read_file', 'scope_escape')],
  [
    'scope escape, flag withdrawn',
    new ToolPolicyError('run_command', 'scope_escape', { recoverable: false }),
  ],
  [
    'governed block',
    new ToolPolicyError('write_file', 'governed_block', { guardReason: 'frozen' }),
  ],
  ['user', new ToolDeniedByUserError('write_file', 'user_rejected', { userReason: 'not today' })],
  ['args', new ToolArgsInvalidError('read_file', [{ field: 'path', problem: 'required' }])],
  [
    'unavailable',
    new ToolUnavailableError('run_command', 'process', { reason: 'sandbox_unavailable' }),
  ],
  ['unwired', new ToolUnavailableError('http_request', 'egress')],
  [
    'execution',
    new ToolExecutionError('mcp_call', 'tool_error', {
      retryable: false,
      recoverable: true,
      correctable: true,
      detail: 'bad input',
    }),
  ],
  ['journal', new EffectJournalError('write_file', 'effect_unresolved')],
  ['cancelled', new ToolCancelledError('run_command')],
];

describe('the dispatch error wire form', () => {
  it.each(cases)('rebuilds %s exactly: class, message, fields, ladder class', (_name, error) => {
    const rebuilt = decodeDispatchError(encodeDispatchError(error), 'wrtie_file');

    expect(rebuilt?.constructor).toBe(error.constructor);
    expect(rebuilt?.message).toBe(error.message);
    expect({ ...rebuilt }).toEqual({ ...error });
    expect(classifyToolError(rebuilt)).toBe(classifyToolError(error));
  });

  it('is string-valued only (Restate metadata) and never carries the cause', () => {
    const error = new ToolExecutionError('read_file', 'io', { cause: new Error('/secret/path') });

    const wire = encodeDispatchError(error);

    expect(Object.values(wire).every((value) => typeof value === 'string')).toBe(true);
    expect(JSON.stringify(wire)).not.toContain('/secret/path');
  });

  it.each([
    ['no metadata', undefined],
    ['another origin', { code: 'x' }],
    ['an unknown class', { tag: 'toolhost.dispatch_error.v1', kind: 'Nope', toolId: 't' }],
    [
      'a class without its fields',
      { tag: 'toolhost.dispatch_error.v1', kind: 'ToolPolicyError', toolId: 't' },
    ],
    [
      'malformed issues',
      { tag: 'toolhost.dispatch_error.v1', kind: 'ToolArgsInvalidError', toolId: 't', issues: '{' },
    ],
  ])('refuses %s rather than guess', (_name, wire) => {
    expect(decodeDispatchError(wire, 'x')).toBeUndefined();
  });

  it('maps each code to an HTTP status an ingress caller can read', () => {
    expect(cases.map(([, error]) => statusOf(error))).toEqual([
      404, 403, 403, 403, 403, 403, 400, 503, 503, 500, 500, 409,
    ]);
  });
});
