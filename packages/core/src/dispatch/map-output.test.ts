import { describe, expect, it } from 'vitest';
import { mapOutput } from './map-output.js';

const result = { stdout: 'out', exitCode: 0, nested: { list: ['a', 'b'], deep: { value: 7 } } };

describe('mapOutput', () => {
  it('returns the full result without a mapping', () => {
    expect(mapOutput(result, {})).toBe(result);
  });

  it.each<[string, string, unknown]>([
    ['a top-level key', 'stdout', 'out'],
    ['a falsy value', 'exitCode', 0],
    ['a dot path', 'nested.deep.value', 7],
    ['an array index', 'nested.list.1', 'b'],
    ['the whole result for an empty path', '', result],
    ['undefined for a missing key', 'stderr', undefined],
    ['undefined past a leaf', 'stdout.length', undefined],
    ['undefined for an inherited property', 'nested.list.map', undefined],
    ['undefined for __proto__', '__proto__', undefined],
    ['undefined for constructor', 'constructor.name', undefined],
  ])('maps %s', (_case, path, expected) => {
    expect(mapOutput(result, { outputMapping: { value: path } })).toEqual({ value: expected });
  });

  it('keeps a __proto__ state key as plain data', () => {
    const mapped = mapOutput(result, {
      outputMapping: JSON.parse('{"__proto__": "stdout"}') as Record<string, string>,
    });

    expect(Object.getOwnPropertyDescriptor(mapped, '__proto__')?.value).toBe('out');
    expect(Object.getPrototypeOf(mapped)).toBe(Object.prototype);
  });

  it('maps from a non-object result to undefined', () => {
    expect(mapOutput('text', { outputMapping: { value: 'length' } })).toEqual({ value: undefined });
  });
});
