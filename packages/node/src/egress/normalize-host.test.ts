import { describe, expect, it } from 'vitest';

import { normalizeHost } from './normalize-host.js';

describe('normalizeHost', () => {
  it.each([
    ['lowercases', 'API.Example.COM', 'api.example.com'],
    ['strips one trailing dot', 'api.example.com.', 'api.example.com'],
    ['converts IDN to punycode', 'bücher.example', 'xn--bcher-kva.example'],
    ['maps ideographic full stops', 'api。example。com', 'api.example.com'],
    ['canonicalises a hex IPv4', '0x7f000001', '127.0.0.1'],
    ['canonicalises IPv6 and keeps brackets', '[0:0::FFFF:7F00:1]', '[::ffff:7f00:1]'],
  ])('%s', (_case, input, expected) => {
    expect(normalizeHost(input)).toBe(expected);
  });

  it.each([
    ['userinfo', 'a.com@b.com'],
    ['a path', 'a.com/x'],
    ['a port', 'a.com:443'],
    ['a space', 'a b.com'],
    ['an empty string', ''],
  ])('refuses an entry with %s', (_case, input) => {
    expect(normalizeHost(input)).toBeUndefined();
  });
});
