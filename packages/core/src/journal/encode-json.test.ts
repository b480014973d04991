import { describe, expect, it } from 'vitest';
import { INHERITS_NOTHING } from '../inherits-nothing.js';
import { encodeJson } from './encode-json.js';

describe('encodeJson', () => {
  it('writes sorted keys in code-unit order for the canonical form, at every depth', () => {
    const text = encodeJson({ b: 1, a: { d: [true, null], c: 'x' }, B: 2 }, { sortKeys: true });

    expect(text).toBe('{"B":2,"a":{"c":"x","d":[true,null]},"b":1}');
  });

  it('keeps insertion order otherwise, and leaves undefined properties out as JSON does', () => {
    const text = encodeJson({ b: 1, a: undefined, c: 'é' }, { sortKeys: false });

    expect(text).toBe('{"b":1,"c":"é"}');
  });

  it('escapes a lone surrogate, so the text is well-formed', () => {
    expect(encodeJson('\ud800', { sortKeys: true })).toBe('"\\ud800"');
  });

  it('encodes a value shared by two branches at each place', () => {
    const shared = { x: 1 };

    expect(encodeJson({ a: shared, b: shared }, { sortKeys: true })).toBe(
      '{"a":{"x":1},"b":{"x":1}}',
    );
  });

  it('encodes an object without a prototype, or inheriting nothing, as its plain copy', () => {
    const plain = { b: 1, a: ['x'] };
    for (const prototype of [null, INHERITS_NOTHING]) {
      const value = Object.assign(Object.create(prototype) as object, plain);
      expect(encodeJson(value, { sortKeys: true })).toBe(encodeJson(plain, { sortKeys: true }));
    }
  });

  const cyclic: Record<string, unknown> = {};
  cyclic['self'] = cyclic;
  const throwing = Object.defineProperty({}, 'boom', {
    enumerable: true,
    get: () => {
      throw new Error('getter');
    },
  });

  it.each<[string, unknown]>([
    ['a cycle', cyclic],
    ['a Date', { at: new Date(0) }],
    ['a Map', new Map()],
    ['a byte array', new Uint8Array(2)],
    ['a bigint', 1n],
    ['NaN', Number.NaN],
    ['Infinity', [Number.POSITIVE_INFINITY]],
    ['a function', { run: () => 1 }],
    ['an undefined array item', [undefined]],
    ['a hole', Object.assign(new Array<unknown>(2), { 1: 'x' })],
    ['a throwing getter', throwing],
    ['undefined itself', undefined],
  ])('refuses %s', (_case, value) => {
    expect(encodeJson(value, { sortKeys: true })).toBeUndefined();
  });
});
