import { ToolPolicyError, type ToolId } from '@toolhost/core';
import { normalizeHost } from '@toolhost/core/policy';

/**
 * Parses and re-checks a request URL (or a redirect target, against `base`): WHATWG-parseable,
 * `https:` only, no userinfo. A URL the parser rejects is refused, never "repaired".
 */
export function checkEgressUrl(toolId: ToolId, raw: string, base?: URL): URL {
  let url: URL;
  try {
    url = base === undefined ? new URL(raw) : new URL(raw, base);
  } catch {
    throw new ToolPolicyError(toolId, 'insecure_url');
  }
  if (url.protocol !== 'https:') throw new ToolPolicyError(toolId, 'insecure_url');
  // `https://allowed.com@evil.com/` reads as the allowed host to a human and to naive parsers.
  if (url.username !== '' || url.password !== '') throw new ToolPolicyError(toolId, 'insecure_url');
  // A special scheme parses only with a non-empty, valid host, so no host check is left to do.
  return url;
}

/**
 * Exact-host allowlist check (any port, no wildcards) against hosts from `normalizeAllowlist`.
 * Absent ⇒ only `fallbackHost` (the original request's host) is allowed.
 */
export function assertHostAllowed(
  toolId: ToolId,
  url: URL,
  allowedHosts: ReadonlySet<string> | undefined,
  fallbackHost: string,
): void {
  const host = normalizeHost(url.hostname);
  const allowed =
    host !== undefined &&
    (allowedHosts === undefined ? host === fallbackHost : allowedHosts.has(host));
  if (!allowed) throw new ToolPolicyError(toolId, 'domain_not_allowed');
}

/** `allowedDomains` in normal form, once per call; an entry that is not a bare host matches nothing. */
export function normalizeAllowlist(allowedDomains: readonly string[]): ReadonlySet<string> {
  const hosts = new Set<string>();
  for (const entry of allowedDomains) {
    const host = normalizeHost(entry);
    if (host !== undefined) hosts.add(host);
  }
  return hosts;
}
