/**
 * True for an absolute `https://` URL with a host, no userinfo and no whitespace or control
 * characters. Core has no WHATWG `URL` (engine-pure), so this is a strict shape check; the
 * egress host parses and re-checks the URL before any connection.
 */
export function isHttpsUrl(value: string): boolean {
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code <= 0x20 || code === 0x7f) return false;
  }
  return /^https:\/\/[^/?#@\\]+(?:[/?#].*)?$/i.test(value);
}

/**
 * Appends `params` to `endpoint`'s query with `application/x-www-form-urlencoded` encoding,
 * replacing any same-named pair the endpoint already has and dropping a fragment. The query is
 * model text: it is encoded as data, never concatenated raw into the URL.
 */
export function appendSearchParams(
  endpoint: string,
  params: ReadonlyArray<readonly [string, string]>,
): string {
  const withoutFragment = endpoint.split('#', 1)[0] ?? '';
  const queryStart = withoutFragment.indexOf('?');
  const base = queryStart === -1 ? withoutFragment : withoutFragment.slice(0, queryStart);
  const existing = queryStart === -1 ? '' : withoutFragment.slice(queryStart + 1);
  const names = new Set(params.map(([name]) => encodeFormComponent(name)));
  const kept = existing
    .split('&')
    .filter((pair) => pair !== '' && !names.has(pair.split('=', 1)[0] ?? ''));
  const added = params.map(
    ([name, value]) => `${encodeFormComponent(name)}=${encodeFormComponent(value)}`,
  );
  return `${base}?${[...kept, ...added].join('&')}`;
}

/**
 * The WHATWG urlencoded serializer, byte for byte what `URLSearchParams#toString` produces
 * (only `*-._` and ASCII alphanumerics stay, space becomes `+`, lone surrogates become U+FFFD).
 */
export function encodeFormComponent(value: string): string {
  const wellFormed = value.replace(LONE_SURROGATE, '\uFFFD');
  return encodeURIComponent(wellFormed)
    .replace(/[!'()~]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

// encodeURIComponent throws on a lone surrogate; URLSearchParams replaces it, so we do too.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
