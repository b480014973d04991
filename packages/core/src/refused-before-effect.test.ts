import { describe, expect, it } from 'vitest';
import {
  isRefusedBeforeEffect,
  refusedBeforeEffect,
  ToolArgsInvalidError,
  ToolCancelledError,
  ToolExecutionError,
  ToolPolicyError,
  ToolUnavailableError,
  withToolId,
} from './errors.js';

describe('refusedBeforeEffect', () => {
  it('marks the error it is given and returns it', () => {
    const error = new ToolPolicyError('a', 'protected_path');

    expect(refusedBeforeEffect(error)).toBe(error);
    expect(isRefusedBeforeEffect(error)).toBe(true);
  });

  it('leaves an error it was never given unmarked', () => {
    expect(isRefusedBeforeEffect(new ToolPolicyError('a', 'domain_not_allowed'))).toBe(false);
    expect(isRefusedBeforeEffect(new Error('raw'))).toBe(false);
    expect(isRefusedBeforeEffect(undefined)).toBe(false);
    expect(isRefusedBeforeEffect('refused')).toBe(false);
  });

  it('is invisible to enumeration and serialization', () => {
    const error = refusedBeforeEffect(new ToolPolicyError('a', 'ssrf_blocked'));

    expect(Object.keys(error)).not.toContain(String(Symbol.for('toolhost.refusedBeforeEffect')));
    expect(Object.getOwnPropertySymbols({ ...error })).toEqual([]);
    expect(JSON.stringify(error)).toBe(JSON.stringify(new ToolPolicyError('a', 'ssrf_blocked')));
  });

  it('is read through the registered symbol, so another copy of core agrees', () => {
    const foreign = new ToolPolicyError('a', 'insecure_url');
    Object.defineProperty(foreign, Symbol.for('toolhost.refusedBeforeEffect'), { value: true });

    expect(isRefusedBeforeEffect(foreign)).toBe(true);
  });

  it('leaves a frozen error unmarked rather than throwing: the claim is kept', () => {
    const error = Object.freeze(new ToolPolicyError('a', 'protected_path'));

    expect(refusedBeforeEffect(error)).toBe(error);
    expect(isRefusedBeforeEffect(error)).toBe(false);
  });
});

describe('withToolId and the mark', () => {
  it.each([
    new ToolPolicyError('a', 'domain_not_allowed'),
    new ToolArgsInvalidError('a', ['path']),
    new ToolUnavailableError('a', 'fs'),
    new ToolExecutionError('a', 'network'),
    new ToolCancelledError('a'),
  ])('carries the mark of %s to the re-stamped error', (error) => {
    const stamped = withToolId(refusedBeforeEffect(error), 'b');

    expect(stamped).not.toBe(error);
    expect(stamped.toolId).toBe('b');
    expect(isRefusedBeforeEffect(stamped)).toBe(true);
  });

  it('does not invent a mark the original lacked', () => {
    const stamped = withToolId(new ToolPolicyError('a', 'domain_not_allowed'), 'b');

    expect(stamped.toolId).toBe('b');
    expect(isRefusedBeforeEffect(stamped)).toBe(false);
  });
});
