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

  it('cuts long text like the scan does, with or without a native encoder', async () => {
    vi.stubGlobal('TextEncoder', undefined);
    vi.resetModules();
    const scanned = await import('./utf8.js');
    // The encoder is looked up once, on first use: latch its absence before restoring it.
    scanned.utf8ByteLength('x'.repeat(5000));
    vi.unstubAllGlobals();
    vi.resetModules();
    const unit = fc.constantFrom('a', 'a', 'a', 'é', '中', '😀', '\ud800', '\udc00');
    fc.assert(
      fc.property(
        fc.string({ unit, minLength: 4000, maxLength: 12_000 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 4096, max: 9000 }),
        (text, start, maxBytes) => {
          expect(forwardCut(text, start, maxBytes)).toBe(scanned.forwardCut(text, start, maxBytes));
          expect(backwardCut(text, start, maxBytes)).toBe(
            scanned.backwardCut(text, start, maxBytes),
          );
        },
      ),
      { numRuns: 300 },
    );
    // All ASCII: the native shortcut decides both cuts.
    const ascii = 'x'.repeat(20_000);
    expect(forwardCut(ascii, 100, 5000)).toBe(5100);
    expect(backwardCut(ascii, 100, 5000)).toBe(15_000);
    // One two-byte character in reach: one unit fewer.
    const nearEnd = `${'x'.repeat(19_990)}é${'x'.repeat(9)}`;
    expect(backwardCut(nearEnd, 100, 5000)).toBe(15_001);
    expect(forwardCut(`é${ascii}`, 0, 5000)).toBe(4999);
  });
});
