import { describe, expect, it } from 'vitest';

import { isAllowedAddress, isGlobalUnicast, parseAddressRanges } from './is-global-unicast.js';

describe('isGlobalUnicast', () => {
  it.each([
    ['IPv4 loopback', '127.0.0.1'],
    ['anywhere in 127/8', '127.255.0.9'],
    ['unspecified', '0.0.0.0'],
    ['this network 0/8', '0.1.2.3'],
    ['private 10/8', '10.1.2.3'],
    ['private 172.16/12', '172.31.255.255'],
    ['private 192.168/16', '192.168.0.1'],
    ['link-local / metadata', '169.254.169.254'],
    ['CGNAT low edge', '100.64.0.0'],
    ['CGNAT high edge', '100.127.255.255'],
    ['benchmarking 198.18/15', '198.19.0.1'],
    ['IETF protocol 192.0.0/24', '192.0.0.8'],
    ['TEST-NET-1', '192.0.2.1'],
    ['TEST-NET-2', '198.51.100.1'],
    ['TEST-NET-3', '203.0.113.1'],
    ['6to4 relay anycast', '192.88.99.1'],
    ['reserved 240/4', '250.1.1.1'],
    ['broadcast', '255.255.255.255'],
    ['multicast', '239.1.1.1'],
    ['IPv6 loopback', '::1'],
    ['IPv6 unspecified', '::'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped public (embedding refused as a class)', '::ffff:8.8.8.8'],
    ['IPv4-compatible loopback', '::7f00:1'],
    ['NAT64 well-known prefix', '64:ff9b::a9fe:a9fe'],
    ['NAT64 local-use prefix', '64:ff9b:1::a9fe:a9fe'],
    ['6to4 embedding loopback', '2002:7f00:1::1'],
    ['6to4 embedding a public IPv4', '2002:808:808::1'],
    ['Teredo', '2001::1'],
    ['unique local fc00::/7', 'fd00::1'],
    ['link-local fe80::/10', 'fe80::1'],
    ['deprecated site-local', 'fec0::1'],
    ['multicast ff00::/8', 'ff02::1'],
    ['documentation 2001:db8::/32', '2001:db8::1'],
    ['discard 100::/64', '100::1'],
    ['outside 2000::/3', '4000::1'],
    ['not an address', 'example.com'],
  ])('refuses %s', (_case, address) => {
    expect(isGlobalUnicast(address)).toBe(false);
  });

  it.each([
    ['public IPv4', '93.184.215.14'],
    ['just below CGNAT', '100.63.255.255'],
    ['just above CGNAT', '100.128.0.0'],
    ['just below 172.16/12', '172.15.255.255'],
    ['just above 172.16/12', '172.32.0.0'],
    ['just above benchmarking', '198.20.0.0'],
    ['public IPv6', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    ['Google public DNS v6', '2001:4860:4860::8888'],
  ])('accepts %s', (_case, address) => {
    expect(isGlobalUnicast(address)).toBe(true);
  });
});

describe('isAllowedAddress', () => {
  it('exempts an address inside a dangerouslyAllowRanges CIDR', () => {
    const ranges = parseAddressRanges(['127.0.0.1/32']);

    expect(isAllowedAddress('127.0.0.1', ranges)).toBe(true);
  });

  it('exempts nothing outside the CIDR', () => {
    const ranges = parseAddressRanges(['127.0.0.1/32']);

    expect(isAllowedAddress('127.0.0.2', ranges)).toBe(false);
  });

  it('does not let an IPv4 range exempt its IPv4-mapped IPv6 form', () => {
    const ranges = parseAddressRanges(['127.0.0.1/32']);

    expect(isAllowedAddress('::ffff:127.0.0.1', ranges)).toBe(false);
  });

  it('rejects a malformed range at construction', () => {
    expect(() => parseAddressRanges(['127.0.0.1'])).toThrow(TypeError);
  });
});
