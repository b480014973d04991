import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeJsonEscapes } from './decode-json-escapes.js';
import { redactLeaf, redactStructured } from './redact-structured.js';
import { redactText } from './redact-text.js';

// Shapes the redactor's own tests use, with a random body: the body must never survive.
const BODY = fc.string({
  unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'),
  minLength: 36,
  maxLength: 36,
});
const SHAPES: readonly ((body: string) => string)[] = [
  (body) => `AKIA${body.slice(0, 16)}`,
  (body) => `ghp_${body}`,
  (body) => `password=${body}`,
  (body) => `Authorization: Bearer 9${body}`,
  (body) => `-----BEGIN PRIVATE KEY-----\nMIIE${body}\n-----END PRIVATE KEY-----`,
];
// A letter before every JSON escape, so a detector reading the escape's spelling sees a word.
const BEFORE = ['', 'x\n', 'x\t', 'x"', 'x\\', 'x\u0001', 'x\b', 'x\f', 'x\r\n', 'x\\n', 'x\\\\n'];

const planted = fc.record({
  body: BODY,
  shape: fc.constantFrom(...SHAPES),
  before: fc.constantFrom(...BEFORE),
});

describe('redactStructured', () => {
  it('leaves no secret in the JSON of any value, wherever it sits', () => {
    fc.assert(
      fc.property(planted, fc.integer({ min: 0, max: 3 }), ({ body, shape, before }, where) => {
        const text = `${before}${shape(body)}`;
        const value = [
          { note: text },
          { [text]: 1 },
          { a: [{ b: [text] }] },
          { a: [{ [text]: { c: text } }] },
        ][where];
        const json = JSON.stringify(redactStructured(value));
        expect(json).not.toContain(body.slice(0, 12));
        // Read back as the JSON inside JSON a file of it would be.
        expect(redactText(JSON.stringify(json))).not.toContain(body.slice(0, 12));
      }),
      { numRuns: 300 },
    );
  });

  it('reads a string under a key joined to it, as the serialised form would', () => {
    expect(redactStructured({ password: 'hunter2hunter2', path: 'hunter2hunter2' })).toEqual({
      password: '[redacted]',
      path: 'hunter2hunter2',
    });
    expect(redactLeaf('plain', 'token')).toBe('[redacted]');
  });

  it('throws on a cycle and keeps what JSON would drop for JSON to drop', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => redactStructured(cyclic)).toThrow(TypeError);
    expect(JSON.stringify(redactStructured({ a: undefined, b: new Date(0), c: 1n === 1n }))).toBe(
      '{"b":"1970-01-01T00:00:00.000Z","c":true}',
    );
  });

  it('keeps a `__proto__` key as data', () => {
    const value = JSON.parse('{"__proto__": {"x": 1}}') as unknown;
    expect(Object.keys(redactStructured(value) as object)).toEqual(['__proto__']);
  });
});

describe('decodeJsonEscapes', () => {
  it('reads every escape as its character and a lone surrogate as U+FFFD', () => {
    expect(decodeJsonEscapes('a\\nb\\t\\"\\\\\\/\\u0041\\ud800\\x')).toBe('a\nb\t"\\/A\ufffd\\x');
  });
});
