import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { backwardCut, forwardCut, utf8ByteLength } from './utf8.js';

describe('utf8ByteLength', () => {
  it.each([
    ['', 0],
    ['ascii', 5],
    ['é', 2],
    ['中', 3],
    ['😀', 4],
    ['\ud800', 3],
    ['a\udc00b', 5],
  ])('counts %j as %i bytes', (text, bytes) => {
    expect(utf8ByteLength(text)).toBe(bytes);
  });

  it('agrees with the platform encoder on well-formed text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(utf8ByteLength(text)).toBe(Buffer.byteLength(text, 'utf8'));
      }),
    );
  });
});

describe('utf8ByteLength on long text', () => {
  // Long enough for the native encoder and its 64 Ki-unit chunks; pairs placed on chunk edges.
  const long: [string, string][] = [
    ['ASCII', 'a'.repeat(200_000)],
    ['Latin-1', 'é'.repeat(70_000) + 'x'.repeat(70_000)],
    ['a pair across the first chunk edge', 'a'.repeat(65_535) + '😀' + 'b'.repeat(10)],
    ['a pair just after the edge', 'a'.repeat(65_536) + '😀'],
    ['a lone high surrogate on the edge', 'a'.repeat(65_535) + '\ud800' + 'b'.repeat(70_000)],
    ['a lone low surrogate after the edge', 'a'.repeat(65_536) + '\udc00' + 'c'],
    ['mixed widths', 'a中é😀\n'.repeat(40_000)],
  ];

  it.each(long)('counts %s like the platform encoder', (_case, text) => {
    expect(utf8ByteLength(text)).toBe(Buffer.byteLength(text, 'utf8'));
  });

  it.each(long)('counts %s the same without a native encoder', async (_case, text) => {
    vi.stubGlobal('TextEncoder', undefined);
    vi.resetModules();
    try {
      const scanned = await import('./utf8.js');
      expect(scanned.utf8ByteLength(text)).toBe(Buffer.byteLength(text, 'utf8'));
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
  });
});

describe('forwardCut / backwardCut', () => {
  it('never cuts inside a surrogate pair', () => {
    expect(forwardCut('a😀b', 0, 4)).toBe(1);
    expect(forwardCut('a😀b', 0, 5)).toBe(3);
    expect(backwardCut('a😀b', 0, 4)).toBe(3);
    expect(backwardCut('a😀b', 0, 5)).toBe(1);
  });

  it('respects the floor', () => {
    expect(backwardCut('abcdef', 4, 100)).toBe(4);
  });
});
