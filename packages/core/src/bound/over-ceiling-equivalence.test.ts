import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolResultLimits } from '../dispatch-context.js';
import { overCeilingText, truncate } from './bound-for-model.js';
import {
  measureRendering,
  planRendering,
  sectionsFitInPlace,
  splitSections,
} from './render-for-model.js';
import { legacySectionsFit } from './test-support/legacy-sections-fit.js';
import { legacyOverCeilingText } from './test-support/legacy-over-ceiling-text.js';
import { utf8ByteLength } from './utf8.js';

// Bounding now settles most renderings from sizes alone (no head, rule or byte count built) and
// counts bytes only when a spill does not: it must decide, preview and mark exactly as before.

const LIMITS: readonly ToolResultLimits[] = [
  { maxBytes: 51_200, maxLines: 2000 },
  { maxBytes: 400, maxLines: 20 },
  { maxBytes: 4096, maxLines: 100 },
  { maxBytes: 4 * 1024 * 1024, maxLines: 1_000_000 },
  { maxBytes: 3 * 1024 + 120, maxLines: 5000 },
];

function corpus(): readonly unknown[] {
  const rules = '===== a\n====== b\r======= c\n';
  return [
    { content: 'hi\nthere', mimeType: 'text/plain', sizeBytes: 8, lastModified: '2026-01-01' },
    { content: `${'a'.repeat(1023)}\n`.repeat(1024), mimeType: 'text/plain', sizeBytes: 1 << 20 },
    { content: `${'a'.repeat(1023)}\n`.repeat(64), more: true, totalLines: 64 },
    { content: 'é'.repeat(1200), sizeBytes: 2400 },
    { content: 'é'.repeat(2000), sizeBytes: 4000 },
    { content: 'é'.repeat(1599), sizeBytes: 3198 },
    { content: '😀'.repeat(700), sizeBytes: 2800 },
    { content: `x\n`.repeat(19) + 'x', other: 1 },
    { content: `x\n`.repeat(1999), other: null },
    { content: rules.repeat(200), flag: true },
    { stdout: rules.repeat(20), stderr: 'warn\n'.repeat(10), exitCode: 0 },
    { content: 'a\n'.repeat(10), nested: { deep: [1, 2, 3] } },
    { content: 'a\n'.repeat(10), big: 1n },
    { content: 'a\n'.repeat(10), missing: undefined, fn: () => 1 },
    { content: 'a\n'.repeat(10), [`k${'\u2028'.repeat(30)}`]: 'odd key' },
    { ['__proto__']: 'own', content: 'b\n'.repeat(300) },
    { 'bad key\n': 'x\n'.repeat(300), content: 'y\n'.repeat(300) },
    { content: 'z'.repeat(257), note: '"quoted"\\\u0001'.repeat(40) },
    Object.assign(Object.create(null) as object, { content: 'n\n'.repeat(500) }),
  ];
}

describe('overCeilingText, before and after sizes alone could settle a rendering', () => {
  it('decides every result as before', () => {
    for (const value of corpus()) {
      for (const limits of LIMITS) {
        const before = legacyOverCeilingText(value, limits);
        const after = overCeilingText(value, limits);

        expect(after === undefined).toBe(before === undefined);
        if (before !== undefined && after !== undefined) {
          expect(after.lines).toBe(before.lines);
          if ('text' in before) expect(after).toEqual(before);
          else expect('rendering' in after && after.rendering).toEqual(before.rendering);
        }
      }
    }
  });

  it('previews and marks every over-ceiling result as before, spilled or not', async () => {
    const store = {
      spill: async (text: string) => ({
        ref: '/run/spill-1.txt',
        byteLength: utf8ByteLength(text),
      }),
    };
    for (const value of corpus()) {
      for (const limits of LIMITS) {
        const before = legacyOverCeilingText(value, limits);
        const after = overCeilingText(value, limits);
        if (before === undefined || after === undefined) continue;
        for (const where of [store, undefined]) {
          expect(await truncate(after, limits, where, undefined)).toEqual(
            await truncate(before, limits, where, undefined),
          );
        }
      }
    }
  });

  it('never calls a rendering that is over the limits a fit', () => {
    const piece = fc.constantFrom(
      'a',
      ' ',
      '=',
      '\r',
      '\n',
      'é',
      '😀',
      'ĀĀĀ',
      '\ud800',
      '\n===== ',
      '\n====== ',
      '\r======= ',
      '\n======== ',
      '===== ',
    );
    const body = fc.array(piece, { maxLength: 300 }).map((pieces) => `${pieces.join('')}\n`);
    const flat = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('content', 'stdout', 'body'), body), { minLength: 1 }),
        fc.dictionary(fc.string({ maxLength: 8 }), flat, { maxKeys: 4 }),
        fc.integer({ min: 1, max: 6 }),
        fc.boolean(),
        (sections, rest, short, byLines) => {
          const value = { ...rest, ...Object.fromEntries(sections) };
          const split = splitSections(value);
          const rendering = planRendering(value);
          if (split === undefined || rendering === undefined) return;
          const { lines, bytes } = measureRendering(rendering);
          // Just under what the rendering needs, in lines or in bytes.
          const limits = byLines
            ? { maxBytes: bytes * 4, maxLines: lines - short }
            : { maxBytes: bytes - short, maxLines: lines };

          expect(legacySectionsFit(split, limits)).toBe(false);
          expect(sectionsFitInPlace(value, limits)).toBe(false);
          expect(overCeilingText(value, limits)).not.toBeUndefined();
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('sizes a result in place exactly as the split would', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.string({ maxLength: 600 }),
      fc
        .array(fc.constantFrom('a', '\n', 'é', '😀', '='), { maxLength: 400 })
        .map((units) => units.join('')),
    );
    const field = fc.oneof(text, fc.double(), fc.boolean(), fc.constant(null), fc.constant([1]));
    const key = fc.oneof(
      fc.constantFrom('content', 'stdout', 'body', '__proto__', 'bad key', '1', 'x'.repeat(65)),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(key, field), { maxLength: 6 }),
        fc.integer({ min: 1, max: 4000 }),
        fc.integer({ min: 1, max: 60 }),
        (entries, maxBytes, maxLines) => {
          const value: Record<string, unknown> = {};
          for (const [name, entry] of entries) {
            Object.defineProperty(value, name, {
              value: entry,
              enumerable: true,
              writable: true,
              configurable: true,
            });
          }
          const limits = { maxBytes, maxLines };
          const split = splitSections(value);
          expect(sectionsFitInPlace(value, limits)).toBe(
            split === undefined ? undefined : legacySectionsFit(split, limits),
          );
        },
      ),
      { numRuns: 3000 },
    );
    for (const value of corpus()) {
      for (const limits of LIMITS) {
        if (typeof value !== 'object' || value === null) continue;
        const split = splitSections(value);
        expect(sectionsFitInPlace(value, limits)).toBe(
          split === undefined ? undefined : legacySectionsFit(split, limits),
        );
      }
    }
  });
});
