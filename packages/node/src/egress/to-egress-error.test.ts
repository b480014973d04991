import { describe, expect, it } from 'vitest';

import { ToolCancelledError, ToolExecutionError, ToolPolicyError } from '@toolhost/core';

import { toEgressError } from './to-egress-error.js';

const idle = { cancelled: false, timedOut: false };
const coded = (code: string): Error =>
  Object.assign(new Error(`raw detail ${code} 10.0.0.1`), { code });

describe('toEgressError', () => {
  it.each([
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'tls'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'tls'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'tls'],
    ['CERT_HAS_EXPIRED', 'tls'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'tls'],
    ['UND_ERR_CONNECT_TIMEOUT', 'timed_out'],
    ['UND_ERR_HEADERS_TIMEOUT', 'timed_out'],
    ['ECONNREFUSED', 'network'],
    ['ECONNRESET', 'network'],
    ['UND_ERR_SOCKET', 'network'],
  ])('maps %s to %s with a fixed message', (code, reason) => {
    const error = toEgressError('http_request', coded(code), idle);

    expect(error).toBeInstanceOf(ToolExecutionError);
    expect(error).toMatchObject({ reason, message: `tool http_request failed: ${reason}` });
  });

  it('lets a cancel win over any error', () => {
    const error = toEgressError(
      'http_request',
      new ToolPolicyError('http_request', 'ssrf_blocked'),
      {
        cancelled: true,
        timedOut: false,
      },
    );

    expect(error).toBeInstanceOf(ToolCancelledError);
  });

  it('reports the deadline as timed_out', () => {
    const error = toEgressError('http_request', coded('UND_ERR_ABORTED'), {
      cancelled: false,
      timedOut: true,
    });

    expect(error).toMatchObject({ reason: 'timed_out' });
  });

  it('passes a typed denial through unchanged', () => {
    const denial = new ToolPolicyError('http_request', 'ssrf_blocked');

    expect(toEgressError('http_request', denial, idle)).toBe(denial);
  });
});
