import { describe, expect, it } from 'vitest';

import { resolveEgressOptions } from './resolve-egress-options.js';

describe('resolveEgressOptions', () => {
  it('fills the spec defaults: 10 MiB, 30 s, 5 redirects, no exempt ranges', () => {
    const resolved = resolveEgressOptions({});

    expect(resolved).toMatchObject({
      toolId: 'http_request',
      maxBodyBytes: 10 * 1024 * 1024,
      timeoutMs: 30_000,
      maxRedirects: 5,
      allowRanges: [],
    });
  });

  it.each([
    ['a zero body cap', { maxBodyBytes: 0 }],
    ['a fractional body cap', { maxBodyBytes: 1.5 }],
    ['a negative timeout', { timeoutMs: -1 }],
    ['a NaN timeout', { timeoutMs: Number.NaN }],
    ['negative redirects', { maxRedirects: -1 }],
    ['a range without a prefix length', { dangerouslyAllowRanges: ['10.0.0.1'] }],
    ['a range that is not an address', { dangerouslyAllowRanges: ['localhost/8'] }],
  ])('rejects %s at construction', (_case, options) => {
    expect(() => resolveEgressOptions(options)).toThrow(TypeError);
  });
});
