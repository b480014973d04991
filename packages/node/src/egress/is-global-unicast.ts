import { isIP } from 'node:net';

import ipaddr from 'ipaddr.js';

/** A parsed CIDR exempted from the SSRF floor (`dangerouslyAllowRanges`). */
export type AddressRange = readonly [ipaddr.IPv4 | ipaddr.IPv6, number];

// 2000::/3 is the only IPv6 block IANA hands out as global unicast; everything outside it
// (`::/96` IPv4-compatible, `100::/64` discard, unassigned space) is refused outright.
const GLOBAL_IPV6 = ipaddr.parseCIDR('2000::/3');

/**
 * True only for a global unicast address. ipaddr.js names every special range (loopback,
 * private, link-local, CGNAT, 198.18/15, 192.0.0/24, 240/4, documentation, broadcast, multicast,
 * `::`, fc00::/7, fe80::/10, mapped, NAT64 64:ff9b::/96 and /48, 6to4, Teredo, …); anything it
 * does not call plain `unicast` is refused, so IPv4 embedded in IPv6 never reaches its v4 target.
 */
export function isGlobalUnicast(address: string): boolean {
  const parsed = parseStrict(address);
  return parsed !== undefined && isGlobal(parsed);
}

/** True when `address` is global unicast or inside one of the embedder's exempted ranges. */
export function isAllowedAddress(address: string, allowRanges: readonly AddressRange[]): boolean {
  const parsed = parseStrict(address);
  if (parsed === undefined) return false;
  if (isGlobal(parsed)) return true;
  // Same-family match only: `::ffff:127.0.0.1` is not exempted by `127.0.0.1/32`.
  return allowRanges.some(
    ([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits),
  );
}

/** Parses `dangerouslyAllowRanges` once, at construction; a bad entry is a TypeError. */
export function parseAddressRanges(cidrs: readonly string[]): AddressRange[] {
  return cidrs.map((cidr) => {
    try {
      return ipaddr.parseCIDR(cidr);
    } catch {
      throw new TypeError('toolhost: dangerouslyAllowRanges entries must be CIDRs');
    }
  });
}

function isGlobal(parsed: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (parsed.range() !== 'unicast') return false;
  return parsed.kind() === 'ipv4' || parsed.match(GLOBAL_IPV6);
}

// Only the canonical forms `net.isIP` accepts: ipaddr.js alone would also read `0x7f.1` or
// `127.1`, spellings a DNS answer never legitimately has.
function parseStrict(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  return isIP(address) === 0 ? undefined : ipaddr.parse(address);
}
