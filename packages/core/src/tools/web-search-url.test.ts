import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendSearchParams, isHttpsUrl } from './web-search-url.js';

describe('appendSearchParams', () => {
  it('keeps the endpoint query and adds the params form-encoded', () => {
    expect(appendSearchParams('https://s.example/search?safesearch=1', [['q', 'a&b c']])).toBe(
      'https://s.example/search?safesearch=1&q=a%26b+c',
    );
  });

  it('replaces a same-named param and drops the fragment', () => {
    expect(
      appendSearchParams('https://s.example/?q=old&format=html#x', [
        ['q', 'new'],
        ['format', 'json'],
      ]),
    ).toBe('https://s.example/?q=new&format=json');
  });

  it('cannot be steered to another host or path by the query', () => {
    const url = new URL(
      appendSearchParams('https://s.example/search', [['q', '@evil.example/#/../x?y=1&q=2']]),
    );

    expect(url.host).toBe('s.example');
    expect(url.pathname).toBe('/search');
    expect(url.searchParams.getAll('q')).toEqual(['@evil.example/#/../x?y=1&q=2']);
  });

  it('round-trips any query through a real URL parser', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (query) => {
        const url = new URL(appendSearchParams('https://s.example/search?x=1', [['q', query]]));

        expect(url.searchParams.get('q')).toBe(query);
        expect(url.searchParams.get('x')).toBe('1');
      }),
      { numRuns: 300 },
    );
  });
});

describe('isHttpsUrl', () => {
  it.each(['https://search.example', 'https://search.example/api?x=1', 'HTTPS://s.example:8443/p'])(
    'accepts %s',
    (value) => {
      expect(isHttpsUrl(value)).toBe(true);
    },
  );

  it.each([
    'http://search.example',
    'ftp://search.example',
    'https://',
    'https://user:pw@search.example',
    'https://search.exa mple/',
    '//search.example',
    'search.example',
    'javascript:alert(1)',
  ])('refuses %j', (value) => {
    expect(isHttpsUrl(value)).toBe(false);
  });
});
