/**
 * Canonical form of a host for allowlist comparison: lowercase, punycode, IPv4 spellings
 * canonicalised, one trailing dot stripped. `undefined` for anything that is not a bare host.
 */
export function normalizeHost(host: string): string | undefined {
  // The WHATWG parser is the one every HTTP client here uses, so its answer is the host that
  // would actually be dialled: IDN → punycode, `0x7f.1` → `127.0.0.1`, fullwidth dots → `.`.
  // `a.com:443` would parse with the default port erased; a port is never part of a host.
  if (/:[^\]]*$/.test(host)) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(`https://${host}/`);
  } catch {
    return undefined;
  }
  // An entry like `a.com@b.com` or `a.com/x` parses, but names a different host than it reads.
  const bare =
    parsed.username === '' &&
    parsed.password === '' &&
    parsed.port === '' &&
    parsed.pathname === '/' &&
    parsed.search === '' &&
    parsed.hash === '';
  if (!bare || parsed.hostname === '') return undefined;
  return stripTrailingDot(parsed.hostname);
}

/** `a.com.` and `a.com` name the same host (absolute vs relative form); compare them as one. */
export function stripTrailingDot(hostname: string): string {
  return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
}
