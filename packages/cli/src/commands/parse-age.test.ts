import { describe, expect, it } from 'vitest';
import { parseAge } from './parse-age.js';

describe('parseAge', () => {
  it.each([
    ['90m', 90 * 60_000],
    ['12h', 12 * 3_600_000],
    ['30d', 30 * 86_400_000],
    ['1d', 86_400_000],
  ])('reads %s', (text, ms) => {
    expect(parseAge(text)).toBe(ms);
  });

  it.each(['', '30', '0d', '-1d', '1.5h', '30 d', '30D', '1w', 'd', '07d', '1d2h', '9999999999d'])(
    'refuses %j',
    (text) => {
      expect(parseAge(text)).toBeUndefined();
    },
  );
});
