/** The providers whose JSON answers `web_search` understands. */
export type SearchProvider = 'brave' | 'searxng';

/** One normalised search hit. */
export interface SearchResult {
  readonly title: string;
  readonly url: string;
  readonly snippet: string;
}

/** Longest title, URL and snippet kept per hit; provider text is untrusted and unbounded. */
export const SEARCH_RESULT_BOUNDS = { title: 512, url: 2048, snippet: 2048 } as const;

/**
 * Maps a Brave Search API (`web.results[].{title,url,description}`) or SearXNG
 * (`results[].{title,url,content}`) answer to `{ title, url, snippet }` hits, at most
 * `maxResults`. `provider` pins the shape; absent, the shape is detected. Returns `undefined`
 * for any other shape, so the caller can fail clearly instead of returning nothing.
 */
export function normalizeSearchResponse(
  body: unknown,
  provider: SearchProvider | undefined,
  maxResults: number,
): SearchResult[] | undefined {
  const detected = provider ?? detectProvider(body);
  if (detected === undefined || !isRecord(body)) return undefined;
  const entries = detected === 'brave' ? braveEntries(body) : searxngEntries(body);
  if (entries === undefined) return undefined;
  const results: SearchResult[] = [];
  for (const entry of entries) {
    if (results.length >= maxResults) break;
    const hit = toResult(entry, detected === 'brave' ? 'description' : 'content');
    if (hit !== undefined) results.push(hit);
  }
  return results;
}

function detectProvider(body: unknown): SearchProvider | undefined {
  if (!isRecord(body)) return undefined;
  if (braveEntries(body) !== undefined && (isRecord(body['web']) || body['type'] === 'search')) {
    return 'brave';
  }
  return Array.isArray(body['results']) ? 'searxng' : undefined;
}

function braveEntries(body: Record<string, unknown>): readonly unknown[] | undefined {
  const web = body['web'];
  // Brave leaves out `web` when nothing matched: an answer with zero hits, not a bad shape.
  if (web === undefined) return body['type'] === 'search' ? [] : undefined;
  if (!isRecord(web)) return undefined;
  const results = web['results'];
  return Array.isArray(results) ? results : undefined;
}

function searxngEntries(body: Record<string, unknown>): readonly unknown[] | undefined {
  const results = body['results'];
  return Array.isArray(results) ? results : undefined;
}

function toResult(entry: unknown, snippetKey: string): SearchResult | undefined {
  if (!isRecord(entry)) return undefined;
  const url = entry['url'];
  // Only web links: a `javascript:` or `file:` URL from a provider is never handed on.
  if (typeof url !== 'string' || !/^https?:\/\/[^\s]+$/i.test(url)) return undefined;
  if (url.length > SEARCH_RESULT_BOUNDS.url) return undefined;
  return {
    title: clip(plainText(entry['title']), SEARCH_RESULT_BOUNDS.title),
    url,
    snippet: clip(plainText(entry[snippetKey]), SEARCH_RESULT_BOUNDS.snippet),
  };
}

// Brave marks matches with <strong>; the model wants the words, not the markup.
function plainText(value: unknown): string {
  if (typeof value !== 'string') return '';
  return value
    .replace(/<[^>]{0,200}>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_entity, name: string) => ENTITIES[name] ?? '')
    .trim();
}

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#39': "'",
  '#x27': "'",
};

// Cut on a code-point boundary: never leave half a surrogate pair at the end.
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
