import { normalizeHost, ToolPolicyError, type ToolId } from '@toolhost/core';

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
  if (normalizeHost(url.hostname) === undefined) throw new ToolPolicyError(toolId, 'insecure_url');
  return url;
}

/**
 * Exact-host allowlist check (any port, no wildcards). Absent `allowedDomains` ⇒ only
 * `fallbackHost` (the original request's host) is allowed.
 */
export function assertHostAllowed(
  toolId: ToolId,
  url: URL,
  allowedDomains: readonly string[] | undefined,
  fallbackHost: string,
): void {
  const host = normalizeHost(url.hostname);
  const allowed =
    allowedDomains === undefined
      ? host === fallbackHost
      : allowedDomains.some((entry) => normalizeHost(entry) === host);
  if (host === undefined || !allowed) throw new ToolPolicyError(toolId, 'domain_not_allowed');
}
