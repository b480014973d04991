import { describe, expect, it } from 'vitest';
import { normalizeSearchResponse, SEARCH_RESULT_BOUNDS } from './web-search-normalize.js';

const brave = {
  type: 'search',
  query: { original: 'toolhost' },
  web: {
    type: 'search',
    results: [
      {
        title: 'Toolhost <strong>docs</strong>',
        url: 'https://a.example/',
        description: 'Safe &amp; <strong>fast</strong>',
      },
      { title: 'Second', url: 'https://b.example/', description: 'two' },
    ],
  },
};

const searxng = {
  query: 'toolhost',
  number_of_results: 2,
  results: [
    { title: 'One', url: 'https://c.example/', content: 'first', engine: 'ddg' },
    { title: 'Two', url: 'http://d.example/', content: 'second', engine: 'ddg' },
  ],
};

describe('normalizeSearchResponse', () => {
  it('maps Brave web results to title, url and snippet, without markup', () => {
    expect(normalizeSearchResponse(brave, 'brave', 5)).toEqual([
      { title: 'Toolhost docs', url: 'https://a.example/', snippet: 'Safe & fast' },
      { title: 'Second', url: 'https://b.example/', snippet: 'two' },
    ]);
  });

  it('maps SearXNG results to title, url and snippet', () => {
    expect(normalizeSearchResponse(searxng, 'searxng', 5)).toEqual([
      { title: 'One', url: 'https://c.example/', snippet: 'first' },
      { title: 'Two', url: 'http://d.example/', snippet: 'second' },
    ]);
  });

  it.each([
    ['Brave', brave, 'https://a.example/'],
    ['SearXNG', searxng, 'https://c.example/'],
  ])('detects the %s shape when no provider is configured', (_case, body, firstUrl) => {
    expect(normalizeSearchResponse(body, undefined, 5)?.[0]?.url).toBe(firstUrl);
  });

  it('caps the hits at maxResults', () => {
    expect(normalizeSearchResponse(searxng, 'searxng', 1)).toHaveLength(1);
  });

  it('treats a Brave answer without web results as zero hits', () => {
    expect(normalizeSearchResponse({ type: 'search', query: {} }, 'brave', 5)).toEqual([]);
  });

  it.each([
    ['a javascript: url', 'javascript:alert(1)'],
    ['a file: url', 'file:///etc/passwd'],
    ['a relative url', '/path'],
    ['a url with whitespace', 'https://a.example/ x'],
    ['a non-string url', 42],
  ])('drops a hit with %s', (_case, url) => {
    const body = { results: [{ title: 't', url, content: 'c' }] };

    expect(normalizeSearchResponse(body, 'searxng', 5)).toEqual([]);
  });

  it('bounds each title and snippet without splitting a surrogate pair', () => {
    const long = `${'x'.repeat(SEARCH_RESULT_BOUNDS.title - 1)}😀tail`;
    const body = { results: [{ title: long, url: 'https://a/', content: 'y'.repeat(10_000) }] };

    const [hit] = normalizeSearchResponse(body, 'searxng', 5) ?? [];

    expect(hit?.title).toBe('x'.repeat(SEARCH_RESULT_BOUNDS.title - 1));
    expect(hit?.snippet).toHaveLength(SEARCH_RESULT_BOUNDS.snippet);
  });

  it.each([
    ['a string', 'hello', undefined],
    ['null', null, undefined],
    ['an array', [], undefined],
    ['an unrelated object', { items: [] }, undefined],
    ['a SearXNG body read as Brave', searxng, 'brave'],
    ['a Brave body read as SearXNG', brave, 'searxng'],
    ['Brave web without results', { web: { results: 'x' } }, 'brave'],
  ] as const)('returns undefined for %s', (_case, body, provider) => {
    expect(normalizeSearchResponse(body, provider, 5)).toBeUndefined();
  });
});
