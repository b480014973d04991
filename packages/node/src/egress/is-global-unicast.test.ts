import fc from 'fast-check';
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

// An independent reading of spec §2.6 (plus the two anycast blocks ipaddr.js also refuses),
// checked against random addresses: ipaddr.js may neither miss a spec range nor refuse more.
const SPEC_BLOCKED_V4: ReadonlyArray<readonly [number, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.31.196.0', 24],
  ['192.52.193.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['192.175.48.0', 24],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
].map(([base, bits]) => [toNumber(base as string), bits as number] as const);

function toNumber(address: string): number {
  return address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

function toDotted(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

function inSpecBlock(value: number): boolean {
  return SPEC_BLOCKED_V4.some(([base, bits]) => {
    const size = 2 ** (32 - bits);
    return value >= base && value < base + size;
  });
}

describe('isGlobalUnicast against the spec ranges (property)', () => {
  it('agrees with the spec on random IPv4 addresses', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (value) => {
        expect(isGlobalUnicast(toDotted(value))).toBe(!inSpecBlock(value));
      }),
      { numRuns: 20_000 },
    );
  });

  it('agrees with the spec inside and at the edges of every blocked range', () => {
    for (const [base, bits] of SPEC_BLOCKED_V4) {
      const last = base + 2 ** (32 - bits) - 1;
      expect(isGlobalUnicast(toDotted(base))).toBe(false);
      expect(isGlobalUnicast(toDotted(last))).toBe(false);
      if (!inSpecBlock(last + 1) && last + 1 < 2 ** 32) {
        expect(isGlobalUnicast(toDotted(last + 1))).toBe(true);
      }
    }
  });
});
