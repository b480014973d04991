// Names that mean "this machine or its private network" whatever DNS says: a resolver on the
// host (/etc/hosts, mDNS, a cloud's internal zone) answers them with addresses the range check
// would refuse anyway, but a name check refuses them before any lookup leaks the query.
const BLOCKED_NAMES = new Set([
  'localhost',
  'localhost.localdomain',
  'ip6-localhost',
  'ip6-loopback',
  'broadcasthost',
]);
const BLOCKED_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa', '.localdomain'];

/**
 * True for `localhost`, `*.localhost`, `*.local`, `*.internal` (so `metadata.google.internal`),
 * a few other private zones, and any single-label name: a dotless name is completed by the
 * resolver's search domains, so `https://metadata/` reaches whatever the local network calls it.
 * Expects a host already passed through `normalizeHost`.
 */
export function isBlockedHostname(hostname: string): boolean {
  if (hostname.startsWith('[')) return false;
  if (BLOCKED_NAMES.has(hostname)) return true;
  if (BLOCKED_SUFFIXES.some((suffix) => hostname.endsWith(suffix))) return true;
  return !hostname.includes('.');
}
