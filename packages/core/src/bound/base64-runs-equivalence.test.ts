import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replaceBase64Runs } from './base64-runs.js';
import { INLINE_BASE64_MIN_RUN } from './inline-media-marker.js';
import { legacyReplaceBase64Runs } from './test-support/legacy-base64-runs.js';

const MIN = INLINE_BASE64_MIN_RUN;

// Pieces a text is built from: runs of each class mix, around and across the run length, with
// padding, separators that end a run, and units outside ASCII (two-byte strings).
const piece = fc.oneof(
  fc.constantFrom('=', '==', '===', ' ', '\n', '.', ':', '"', 'é', '\u2028', '😀', '%3D'),
  fc
    .tuple(
      fc.constantFrom(
        'w',
        'ab',
        '0123456789abcdef',
        'ABCDEF0123',
        'Aa0+',
        'Zz9_',
        'QUJD',
        'a-b_c',
        'G7x/',
        'Aa',
        '09',
      ),
      fc.constantFrom(
        1,
        7,
        63,
        64,
        65,
        66,
        MIN - 3,
        MIN - 1,
        MIN,
        MIN + 1,
        MIN + 2,
        2 * MIN - 1,
        2 * MIN + 5,
      ),
    )
    .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length)),
);

describe('replaceBase64Runs', () => {
  it('replaces exactly what the character-loop scan replaced', () => {
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        expect(replaceBase64Runs(text)).toBe(legacyReplaceBase64Runs(text));
      }),
      { numRuns: 600 },
    );
  });

  it('agrees on mixes where the class that decides sits at either end of a long run', () => {
    const body = 'w'.repeat(MIN - 1);
    for (const odd of ['A', '7', 'B', 'Z', '+', '_']) {
      for (const text of [
        odd + body + 'a9',
        'Q9' + body + odd,
        'x '.repeat(10) + 'A0' + body + odd + '==' + ' tail',
        body.slice(0, 100) + ' ' + 'A0' + odd + body,
        `${'A0z'.repeat(MIN)}=${'A0z'.repeat(MIN)}`,
      ]) {
        expect(replaceBase64Runs(text)).toBe(legacyReplaceBase64Runs(text));
      }
    }
  });

  it('keeps a run of one letter, a hex dump and a ruler, and replaces encoded bytes', () => {
    for (const text of ['w'.repeat(MIN), '0a'.repeat(MIN), '-'.repeat(MIN * 2)]) {
      expect(replaceBase64Runs(text)).toBe(text);
    }
    const encoded = 'Ab9+'.repeat(MIN / 2);
    expect(replaceBase64Runs(`x ${encoded} y`)).toMatch(
      /^x \[inline media removed: 8192 chars;.* y$/,
    );
  });
});
