import { describe, expect, it } from 'vitest';

import { assertHostAllowed, checkEgressUrl, normalizeAllowlist } from './check-egress-url.js';

describe('checkEgressUrl', () => {
  it('resolves a relative redirect against the previous URL', () => {
    const url = checkEgressUrl('http_request', '../b?x=1', new URL('https://a.example/p/q'));

    expect(url.href).toBe('https://a.example/b?x=1');
  });

  it.each([
    ['a scheme-relative hop to http', '//a.example/x', new URL('http://a.example/')],
    ['a hop to javascript:', 'javascript:alert(1)', new URL('https://a.example/')],
    ['userinfo on a hop', 'https://u@a.example/', new URL('https://a.example/')],
  ])('refuses %s', (_case, raw, base) => {
    expect(() => checkEgressUrl('http_request', raw, base)).toThrow(
      expect.objectContaining({ reason: 'insecure_url' }),
    );
  });
});

describe('assertHostAllowed', () => {
  it('matches an allowlist entry exactly, on any port', () => {
    const allowed = normalizeAllowlist(['API.Example.com.']);

    expect(() =>
      assertHostAllowed('http_request', new URL('https://api.example.com:8443/'), allowed, 'x'),
    ).not.toThrow();
  });

  it.each([
    ['a subdomain', 'https://sub.api.example.com/'],
    ['a suffix trick', 'https://api.example.com.evil.example/'],
    ['a parent domain', 'https://example.com/'],
  ])('refuses %s', (_case, raw) => {
    const allowed = normalizeAllowlist(['api.example.com']);

    expect(() => assertHostAllowed('http_request', new URL(raw), allowed, 'x')).toThrow(
      expect.objectContaining({ reason: 'domain_not_allowed' }),
    );
  });

  it('allows only the first host when there is no allowlist', () => {
    const same = (): void =>
      assertHostAllowed('http_request', new URL('https://a.example/'), undefined, 'a.example');
    const other = (): void =>
      assertHostAllowed('http_request', new URL('https://b.example/'), undefined, 'a.example');

    expect(same).not.toThrow();
    expect(other).toThrow(expect.objectContaining({ reason: 'domain_not_allowed' }));
  });

  it('lets a malformed allowlist entry match nothing', () => {
    expect([...normalizeAllowlist(['a.example/x', 'u@b.example', 'c.example:443'])]).toEqual([]);
  });
});
