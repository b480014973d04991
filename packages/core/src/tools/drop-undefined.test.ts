import { describe, expect, it } from 'vitest';
import { dropUndefined } from './drop-undefined.js';

describe('dropUndefined', () => {
  it('drops only the undefined keys', () => {
    const value = { a: 1, b: undefined, c: null, d: '', e: false };

    expect(dropUndefined(value)).toStrictEqual({ a: 1, c: null, d: '', e: false });
    expect(Object.keys(dropUndefined(value))).toEqual(['a', 'c', 'd', 'e']);
  });

  it('keeps an own __proto__ key as a key, never as the prototype', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as object;

    const defined = dropUndefined(value) as Record<string, unknown>;

    expect(Object.getPrototypeOf(defined)).toBe(Object.prototype);
    expect(Object.keys(defined)).toEqual(['__proto__', 'x']);
    expect(defined['polluted']).toBeUndefined();
  });
});
