import { describe, expect, it } from 'vitest';
import { isLoopbackRequest, loopbackAllowlist } from './loopback-origin.js';

describe('isLoopbackRequest', () => {
  const allowed = loopbackAllowlist(4123);

  it.each([
    ['127.0.0.1 without an Origin', '127.0.0.1:4123', undefined],
    ['localhost without an Origin', 'localhost:4123', undefined],
    ['its own page', '127.0.0.1:4123', 'http://127.0.0.1:4123'],
    ['its own page by name', 'localhost:4123', 'http://localhost:4123'],
  ])('lets through %s', (_case, host, origin) => {
    expect(isLoopbackRequest(allowed, host, origin)).toBe(true);
  });

  it.each([
    ['no Host', undefined, undefined],
    ['a rebound name (DNS rebinding)', 'attacker.example:4123', undefined],
    ['another port', '127.0.0.1:4124', undefined],
    ['a foreign Origin', '127.0.0.1:4123', 'http://attacker.example'],
    ['an Origin of another loopback port', '127.0.0.1:4123', 'http://127.0.0.1:4124'],
    ['an https Origin', '127.0.0.1:4123', 'https://127.0.0.1:4123'],
    ['the opaque null Origin', '127.0.0.1:4123', 'null'],
    ['an empty Origin', '127.0.0.1:4123', ''],
    ['the IPv6 loopback', '[::1]:4123', undefined],
  ])('refuses %s', (_case, host, origin) => {
    expect(isLoopbackRequest(allowed, host, origin)).toBe(false);
  });

  it('allows nothing before the port is known', () => {
    expect(isLoopbackRequest({ hosts: [], origins: [] }, '127.0.0.1:0', undefined)).toBe(false);
  });
});
