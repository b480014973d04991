import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendSearchParams, encodeFormComponent, isHttpsUrl } from './web-search-url.js';

describe('encodeFormComponent', () => {
  it('encodes exactly like URLSearchParams for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        const expected = new URLSearchParams([['k', value]]).toString().slice(2);

        expect(encodeFormComponent(value)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ['a space', 'a b', 'a+b'],
    ['query syntax', 'a&b=c#d?e', 'a%26b%3Dc%23d%3Fe'],
    ['a plus sign', '1+1', '1%2B1'],
    ['a lone surrogate', '\uD800x', '%EF%BF%BDx'],
  ])('encodes %s as data', (_case, value, expected) => {
    expect(encodeFormComponent(value)).toBe(expected);
  });
});

describe('appendSearchParams', () => {
  it('keeps the endpoint query and adds the params', () => {
    expect(appendSearchParams('https://s.example/search?safesearch=1', [['q', 'a&b']])).toBe(
      'https://s.example/search?safesearch=1&q=a%26b',
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
    const url = appendSearchParams('https://s.example/search', [['q', '@evil.example/#/../x?y=1']]);

    expect(new URL(url).host).toBe('s.example');
    expect(new URL(url).pathname).toBe('/search');
    expect(new URL(url).searchParams.get('q')).toBe('@evil.example/#/../x?y=1');
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
    'https:///path',
    'https://user:pw@search.example',
    'https://search.example/a b',
    'https://search.example\n/x',
    ' https://search.example',
    '//search.example',
    'search.example',
  ])('refuses %j', (value) => {
    expect(isHttpsUrl(value)).toBe(false);
  });
});
