import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mayHoldShortSecret } from '../redact/redact-secret-shaped-text.js';
import { collapseWhitespace, mayCollapse } from './collapse-whitespace.js';

const PATTERN = /\s\s+|[^\S ]/g;
const SHORT_SECRET = /[\s:=]|[\w.-]{15}/;
// Every UTF-16 unit, so each unit `\s` matches is met by the screens.
const EVERY_UNIT = Array.from({ length: 0x10000 }, (_unused, unit) => String.fromCharCode(unit));
const unit = fc.oneof(
  fc.constantFrom(' ', 'a', '-', '.', '_', '=', ':', '\n', '\t', '\u00a0', '\u2028', '\ufeff'),
  fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
);
const text = fc.array(unit, { maxLength: 40 }).map((units) => units.join(''));

describe('the whitespace and short-secret screens', () => {
  it('never pass a text the patterns would match', () => {
    for (const one of EVERY_UNIT) {
      for (const sample of [one, ` ${one}`, `a${one}b`]) {
        if (sample.replace(PATTERN, ' ') !== sample) expect(mayCollapse(sample)).toBe(true);
        if (SHORT_SECRET.test(sample)) expect(mayHoldShortSecret(sample)).toBe(true);
      }
    }
    fc.assert(
      fc.property(text, (sample) => {
        if (!mayCollapse(sample)) expect(sample.replace(PATTERN, ' ')).toBe(sample);
        if (!mayHoldShortSecret(sample)) expect(SHORT_SECRET.test(sample)).toBe(false);
        expect(collapseWhitespace(sample)).toBe(sample.replace(PATTERN, ' '));
      }),
      { numRuns: 5000 },
    );
  });

  it('let ordinary one-line text and a plain path through', () => {
    expect(mayCollapse('{"content":"export const a = 42;\\n","size":3}')).toBe(false);
    expect(mayHoldShortSecret('src/index.ts')).toBe(false);
    expect(mayHoldShortSecret('a'.repeat(14))).toBe(false);
    expect(mayHoldShortSecret('a'.repeat(15))).toBe(true);
    expect(mayCollapse('a  b')).toBe(true);
  });
});
