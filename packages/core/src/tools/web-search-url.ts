import { parseUrl } from '../policy/parse-url.js';

/** True for an absolute `https://` URL with a host and no userinfo (the WHATWG parser decides). */
export function isHttpsUrl(value: string): boolean {
  const url = parseUrl(value);
  if (url === undefined || url.protocol !== 'https:' || url.hostname === '') return false;
  // Userinfo is a credential in config text, and a classic host-confusion trick.
  return url.username === '' && url.password === '';
}

/**
 * Sets `params` on `endpoint`'s query with `URLSearchParams` (a same-named pair is replaced)
 * and drops any fragment. The query is model text: it is encoded as data, never concatenated.
 */
export function appendSearchParams(
  endpoint: string,
  params: ReadonlyArray<readonly [string, string]>,
): string {
  const url = new WhatwgUrl(endpoint);
  for (const [name, value] of params) url.searchParams.set(name, value);
  url.hash = '';
  return url.toString();
}

interface MutableUrl {
  readonly searchParams: { set(name: string, value: string): void };
  hash: string;
  toString(): string;
}

// Core compiles without DOM or Node types; every engine it runs on ships the WHATWG URL.
const WhatwgUrl = (globalThis as unknown as { readonly URL: new (input: string) => MutableUrl })
  .URL;
