import { describe, expect, it } from 'vitest';

import { ToolPolicyError } from '@toolhost/core';

import { checkEgressUrl } from './check-egress-url.js';
import { parseAddressRanges } from './is-global-unicast.js';
import { resolveDestination } from './resolve-destination.js';
import { mapLookup, type DnsTable } from './test-support/map-lookup.js';

const PUBLIC = '93.184.215.14';

/** The SSRF verdict of the arm's first hop: URL floor, then names, DNS and ranges. */
async function judge(raw: string, dns: DnsTable = {}): Promise<string> {
  try {
    const url = checkEgressUrl('http_request', raw);
    await resolveDestination(url, {
      toolId: 'http_request',
      lookup: mapLookup(dns),
      allowRanges: [],
    });
    return 'allow';
  } catch (error) {
    if (error instanceof ToolPolicyError) return error.reason;
    throw error;
  }
}

describe('the SSRF floor on a request URL', () => {
  it.each([
    // IPv4 spellings: WHATWG canonicalises them, the range check then refuses the result.
    ['dotted loopback', 'https://127.0.0.1/'],
    ['decimal loopback', 'https://2130706433/'],
    ['octal loopback', 'https://017700000001/'],
    ['hex loopback', 'https://0x7f000001/'],
    ['mixed hex dotted', 'https://0x7f.0.0.1/'],
    ['octal first octet', 'https://0177.0.0.1/'],
    ['two-part short form', 'https://127.1/'],
    ['three-part short form', 'https://127.0.1/'],
    ['bare zero', 'https://0/'],
    ['unspecified', 'https://0.0.0.0/'],
    ['private 10/8', 'https://10.0.0.1/'],
    ['octal short private', 'https://012.1/'],
    ['private 172.16/12', 'https://172.16.0.1/'],
    ['private 172.31', 'https://172.31.255.255/'],
    ['private 192.168', 'https://192.168.1.1/'],
    ['decimal 192.168.1.1', 'https://3232235777/'],
    ['metadata', 'https://169.254.169.254/'],
    ['hex metadata', 'https://0xa9fea9fe/'],
    ['octal metadata', 'https://0251.0376.0251.0376/'],
    ['short metadata', 'https://169.254.43518/'],
    ['CGNAT', 'https://100.64.0.1/'],
    ['CGNAT top', 'https://100.127.255.254/'],
    ['benchmarking', 'https://198.18.0.1/'],
    ['benchmarking top', 'https://198.19.255.255/'],
    ['IETF protocol assignments', 'https://192.0.0.1/'],
    ['TEST-NET-1', 'https://192.0.2.1/'],
    ['TEST-NET-2', 'https://198.51.100.7/'],
    ['TEST-NET-3', 'https://203.0.113.9/'],
    ['reserved 240/4', 'https://240.0.0.1/'],
    ['broadcast', 'https://255.255.255.255/'],
    ['multicast', 'https://224.0.0.1/'],
    ['multicast SSDP', 'https://239.255.255.250/'],
    ['IPv4 with a trailing dot', 'https://127.0.0.1./'],
    // IPv6 forms and IPv4 embeddings.
    ['IPv6 loopback', 'https://[::1]/'],
    ['IPv6 unspecified', 'https://[::]/'],
    ['IPv6 loopback spelled out', 'https://[0:0:0:0:0:0:0:1]/'],
    ['IPv4-mapped dotted', 'https://[::ffff:127.0.0.1]/'],
    ['IPv4-mapped hex', 'https://[::ffff:7f00:1]/'],
    ['IPv4-mapped metadata', 'https://[::ffff:169.254.169.254]/'],
    ['IPv4-compatible', 'https://[::127.0.0.1]/'],
    ['NAT64 metadata', 'https://[64:ff9b::169.254.169.254]/'],
    ['NAT64 local-use', 'https://[64:ff9b:1::a9fe:a9fe]/'],
    ['6to4 of loopback', 'https://[2002:7f00:1::]/'],
    ['6to4 of a public address', 'https://[2002:808:808::1]/'],
    ['Teredo', 'https://[2001::1]/'],
    ['link-local', 'https://[fe80::1]/'],
    ['unique local fc00', 'https://[fc00::1]/'],
    ['unique local fd', 'https://[fd12:3456::1]/'],
    ['IPv6 multicast', 'https://[ff02::1]/'],
    ['IPv6 documentation', 'https://[2001:db8::1]/'],
    ['site-local', 'https://[fec0::1]/'],
    // Names.
    ['localhost', 'https://localhost/'],
    ['uppercase localhost', 'https://LOCALHOST/'],
    ['localhost with a trailing dot', 'https://localhost./'],
    ['a localhost subdomain', 'https://app.localhost/'],
    ['mDNS .local', 'https://printer.local/'],
    ['GCP metadata', 'https://metadata.google.internal/'],
    ['GCP metadata upper-case with a dot', 'https://METADATA.GOOGLE.INTERNAL./'],
    ['a single-label name', 'https://metadata/'],
    ['enclosed-alphanumerics localhost (IDNA-mapped)', 'https://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/'],
    ['fullwidth localhost', 'https://ｌｏｃａｌｈｏｓｔ/'],
  ])('blocks %s', async (_case, url) => {
    expect(await judge(url)).toBe('ssrf_blocked');
  });

  it.each([
    ['a name answering loopback', { 'rebind.example.com': ['127.0.0.1'] }],
    [
      'a name answering one public and one private address',
      { 'rebind.example.com': [PUBLIC, '10.0.0.1'] },
    ],
    ['a name answering a private address first', { 'rebind.example.com': ['192.168.0.2', PUBLIC] }],
    ['a name answering IPv6 loopback', { 'rebind.example.com': ['::1'] }],
    ['a name answering IPv4-mapped private', { 'rebind.example.com': ['::ffff:10.0.0.1'] }],
    ['a name answering 0.0.0.0', { 'rebind.example.com': ['0.0.0.0'] }],
    ['a name answering garbage', { 'rebind.example.com': ['not-an-ip'] }],
  ])('blocks %s', async (_case, dns) => {
    expect(await judge('https://rebind.example.com/', dns)).toBe('ssrf_blocked');
  });

  it.each([
    ['http', 'http://example.com/'],
    ['upper-case HTTP', 'HTTP://example.com/'],
    ['ftp', 'ftp://example.com/'],
    ['file', 'file:///etc/passwd'],
    ['gopher', 'gopher://example.com/_x'],
    ['ws', 'ws://example.com/'],
    ['wss', 'wss://example.com/'],
    ['data', 'data:text/plain,x'],
    ['javascript', 'javascript:alert(1)'],
    ['a user', 'https://user@example.com/'],
    ['a user and password', 'https://user:pass@example.com/'],
    ['a password only', 'https://:pass@example.com/'],
    ['an allowed-looking user before a private host', 'https://example.com@127.0.0.1/'],
    ['an encoded slash in the userinfo', 'https://127.0.0.1%2f@example.com/'],
    ['an unclosed IPv6 bracket', 'https://[::1/'],
    ['an out-of-range IPv4', 'https://256.0.0.1/'],
    ['a space in the host', 'https://exa mple.com/'],
    ['a NUL in the host', 'https://127.0.0.1%00.example.com/'],
    ['a relative URL', '/etc/passwd'],
  ])('refuses %s as insecure_url', async (_case, url) => {
    expect(await judge(url)).toBe('insecure_url');
  });

  it.each([
    ['a public IPv4', 'https://1.1.1.1/', {}],
    ['a decimal public IPv4', 'https://134744072/', {}],
    ['a public IPv6', 'https://[2606:4700:4700::1111]/', {}],
    ['a public IPv6 inside 2001::/16 but not Teredo', 'https://[2001:4860:4860::8888]/', {}],
    ['the CGNAT lower neighbour', 'https://100.63.255.254/', {}],
    ['the CGNAT upper neighbour', 'https://100.128.0.1/', {}],
    ['the 172.16/12 upper neighbour', 'https://172.32.0.1/', {}],
    ['the benchmarking upper neighbour', 'https://198.20.0.1/', {}],
    ['an upper-case name', 'https://EXAMPLE.com/', { 'example.com': [PUBLIC] }],
    ['a name with a trailing dot', 'https://example.com./', { 'example.com': [PUBLIC] }],
    [
      'an IDN name (resolved as punycode)',
      'https://bücher.example/',
      { 'xn--bcher-kva.example': [PUBLIC] },
    ],
    ['a non-default port', 'https://example.com:8443/', { 'example.com': [PUBLIC] }],
    [
      'a name with v4 and v6 public answers',
      'https://example.com/',
      { 'example.com': [PUBLIC, '2606:2800:21f:cb07:6820:80da:af6b:8b2c'] },
    ],
  ])('allows %s', async (_case, url, dns) => {
    expect(await judge(url, dns)).toBe('allow');
  });

  it('never asks DNS about a blocked name', async () => {
    const lookup = mapLookup({ 'metadata.google.internal': ['8.8.8.8'] });

    const attempt = resolveDestination(new URL('https://metadata.google.internal/'), {
      toolId: 'http_request',
      lookup,
      allowRanges: [],
    });

    await expect(attempt).rejects.toMatchObject({ reason: 'ssrf_blocked' });
    expect(lookup.calls).toEqual([]);
  });

  it('returns every checked answer and the port to dial', async () => {
    const destination = await resolveDestination(new URL('https://Example.com.:8443/x'), {
      toolId: 'http_request',
      lookup: mapLookup({ 'example.com': [PUBLIC, '2606:4700::1111'] }),
      allowRanges: [],
    });

    expect(destination).toEqual({
      hostname: 'example.com',
      port: 8443,
      addresses: [
        { address: PUBLIC, family: 4 },
        { address: '2606:4700::1111', family: 6 },
      ],
    });
  });

  it('fails an unknown name with not_found, not a denial', async () => {
    const attempt = resolveDestination(new URL('https://nowhere.example/'), {
      toolId: 'http_request',
      lookup: mapLookup({}),
      allowRanges: [],
    });

    await expect(attempt).rejects.toMatchObject({ code: 'tool_failed', reason: 'not_found' });
  });

  it('lets dangerouslyAllowRanges exempt exactly its range', async () => {
    const options = {
      toolId: 'http_request',
      lookup: mapLookup({ 'dev.example.com': ['127.0.0.1'], 'other.example.com': ['127.0.0.2'] }),
      allowRanges: parseAddressRanges(['127.0.0.1/32']),
    };

    await expect(
      resolveDestination(new URL('https://dev.example.com/'), options),
    ).resolves.toMatchObject({
      addresses: [{ address: '127.0.0.1', family: 4 }],
    });
    await expect(
      resolveDestination(new URL('https://other.example.com/'), options),
    ).rejects.toMatchObject({
      reason: 'ssrf_blocked',
    });
  });
});
