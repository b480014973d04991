import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
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
