/** The WHATWG URL fields the policy reads. */
export interface ParsedUrl {
  readonly protocol: string;
  readonly username: string;
  readonly password: string;
  readonly hostname: string;
  readonly port: string;
  readonly pathname: string;
  readonly search: string;
  readonly hash: string;
}

type UrlConstructor = new (input: string) => ParsedUrl;

// Core compiles without DOM or Node types, but every engine it runs on (Node, browsers, Deno,
// workers) ships the WHATWG `URL`; hand-rolling a URL parser would be the bug.
const WhatwgUrl = (globalThis as unknown as { readonly URL: UrlConstructor }).URL;

/** Parses with the WHATWG parser; `undefined` for anything it rejects (never "repaired"). */
export function parseUrl(input: string): ParsedUrl | undefined {
  try {
    return new WhatwgUrl(input);
  } catch {
    return undefined;
  }
}
