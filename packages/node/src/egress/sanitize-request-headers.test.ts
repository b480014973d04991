import { describe, expect, it } from 'vitest';

import { sanitizeRequestHeaders } from './sanitize-request-headers.js';

describe('sanitizeRequestHeaders', () => {
  it('keeps tabs and Latin-1 text in a value', () => {
    const headers = sanitizeRequestHeaders('http_request', { 'x-a': 'caf\u00e9\tok' });

    expect(headers).toEqual({ 'x-a': 'caf\u00e9\tok' });
  });

  it('lowercases names and keeps ordinary headers', () => {
    const headers = sanitizeRequestHeaders('http_request', { Accept: 'application/json' });

    expect(headers).toEqual({ accept: 'application/json' });
  });

  it.each([
    'Host',
    'Content-Length',
    'Transfer-Encoding',
    'Connection',
    'Keep-Alive',
    'Upgrade',
    'TE',
    'Trailer',
    'Proxy-Authorization',
    'X-Forwarded-For',
    'X-Forwarded-Host',
    'Forwarded',
    'X-Real-IP',
    'True-Client-IP',
    'Accept-Encoding',
  ])('drops %s', (name) => {
    const headers = sanitizeRequestHeaders('http_request', { [name]: 'x', accept: '*/*' });

    expect(headers).toEqual({ accept: '*/*' });
  });

  it.each([
    ['CR LF in a value', { 'x-a': 'v\r\nx-injected: 1' }],
    ['a bare LF in a value', { 'x-a': 'v\nx' }],
    ['NUL in a value', { 'x-a': 'v\0' }],
    ['another control character in a value', { 'x-a': 'v\u0008' }],
    ['a character past Latin-1 in a value', { 'x-a': 'v\u2028' }],
    ['CR LF in a name', { 'x-a\r\nx-b': 'v' }],
    ['a space in a name', { 'x a': 'v' }],
    ['a colon in a name', { 'x:a': 'v' }],
    ['an empty name', { '': 'v' }],
  ])('refuses %s', (_case, input) => {
    expect(() => sanitizeRequestHeaders('http_request', input)).toThrow(
      expect.objectContaining({ code: 'tool_denied', reason: 'header_not_allowed' }),
    );
  });
});
