import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mayHoldShortSecret } from './short-secret-screen.js';

const SHORT_SECRET = /[\s:=]|[\w.~-]{15}/;
// Every UTF-16 unit, so each unit `\s` matches is met by the screens.
const EVERY_UNIT = Array.from({ length: 0x10000 }, (_unused, unit) => String.fromCharCode(unit));
const unit = fc.oneof(
  fc.constantFrom(' ', 'a', '-', '.', '_', '~', '=', ':', '\n', '\t', '\u00a0', '\u2028', '\ufeff'),
  fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
);
const text = fc.array(unit, { maxLength: 40 }).map((units) => units.join(''));

describe('the short-secret screen', () => {
  it('never pass a text the patterns would match', () => {
    for (const one of EVERY_UNIT) {
      for (const sample of [one, ` ${one}`, `a${one}b`]) {
        if (SHORT_SECRET.test(sample)) expect(mayHoldShortSecret(sample)).toBe(true);
      }
    }
    fc.assert(
      fc.property(text, (sample) => {
        if (!mayHoldShortSecret(sample)) expect(SHORT_SECRET.test(sample)).toBe(false);
      }),
      { numRuns: 5000 },
    );
  });

  it('lets a plain path through', () => {
    expect(mayHoldShortSecret('src/index.ts')).toBe(false);
    expect(mayHoldShortSecret('a'.repeat(14))).toBe(false);
    expect(mayHoldShortSecret('a'.repeat(15))).toBe(true);
  });
});
