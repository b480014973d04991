import { describe, expect, it } from 'vitest';

import { isBlockedHostname } from './is-blocked-hostname.js';

describe('isBlockedHostname', () => {
  it.each([
    'localhost',
    'app.localhost',
    'printer.local',
    'metadata.google.internal',
    'db.internal',
    'router.home.arpa',
    'localhost.localdomain',
    'ip6-localhost',
    'metadata',
    'intranet',
  ])('blocks %s', (hostname) => {
    expect(isBlockedHostname(hostname)).toBe(true);
  });

  it.each([
    'api.example.com',
    'localhost.example.com',
    'internal.example.com',
    'local.example.org',
    'xn--bcher-kva.example',
    '[2606:4700::1111]',
  ])('leaves %s to the address check', (hostname) => {
    expect(isBlockedHostname(hostname)).toBe(false);
  });
});
