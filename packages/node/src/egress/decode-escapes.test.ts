import { describe, expect, it } from 'vitest';

import { decodeEscapes } from './decode-escapes.js';

describe('decodeEscapes', () => {
  it.each([
    ['JSON escapes', '\\u0041\\u004a\\/\\"\\n', 'AJ/"\n'],
    ['JS hex escapes', '\\x41\\x4A', 'AJ'],
    ['percent-encoding in either case', '%41%4a%2F', 'AJ/'],
    ['numeric references with zeros and no semicolon', '&#x41;&#0074&#X2f;', 'AJ/'],
    ['named references', '&sol;&plus;&amp;&lt', '/+&<'],
    ['an out-of-range reference as U+FFFD', '&#99999999999;', '\ufffd'],
  ])('decodes %s', (_case, text, decoded) => {
    expect(decodeEscapes(text)).toBe(decoded);
  });

  it('returns undefined for text with no escape, even with lone leads', () => {
    expect(decodeEscapes('100% R&D C:\\dir %zz &nosuch; \\q \\u12')).toBeUndefined();
  });

  it('maps each decoded character to the source index it came from', () => {
    const map = new Int32Array(12);

    const decoded = decodeEscapes('a%41\\u0042c', map);

    expect(decoded).toBe('aABc');
    expect([...map.subarray(0, decoded?.length === undefined ? 0 : decoded.length + 1)]).toEqual([
      0, 1, 4, 10, 11,
    ]);
  });
});
