import { parseUrl } from './parse-url.js';

/**
 * A host name in the one form both `allowedDomains` entries and request hosts are compared in:
 * lowercase, IDN as punycode (the WHATWG host parser), one trailing dot stripped. `undefined`
 * for anything that is not a bare host (a port, a path, userinfo, or no host at all), so a
 * malformed allowlist entry matches nothing rather than something unexpected.
 */
export function normalizeHost(host: string): string | undefined {
  if (host === '' || /[/?#@\\\s]/.test(host)) return undefined;
  // `https://h:443/` parses with an empty port, so a port is refused before parsing.
  if (!host.startsWith('[') && host.includes(':')) return undefined;
  const parsed = parseUrl(`https://${host}/`);
  if (parsed === undefined || parsed.port !== '' || parsed.pathname !== '/') return undefined;
  const hostname = parsed.hostname.endsWith('.') ? parsed.hostname.slice(0, -1) : parsed.hostname;
  return hostname === '' ? undefined : hostname;
}
