import { describe, expect, it } from 'vitest';
import { nonNullBranch, strictEncodingOf } from './strict-encoding.js';

const STRING_MAP = { type: 'object', additionalProperties: { type: 'string' } };

describe('strictEncodingOf', () => {
  it.each([
    ['a string', { type: 'string' }, 'plain'],
    ['a closed object', { type: 'object', properties: {}, additionalProperties: false }, 'plain'],
    ['an object without additionalProperties', { type: 'object', properties: {} }, 'plain'],
    ['a $ref', { $ref: '#/$defs/x' }, 'plain'],
    ['an enum without a type', { enum: ['a'] }, 'plain'],
    ['an array of strings', { type: 'array', items: { type: 'string' } }, 'plain'],
    ['an array of anything', { type: 'array', items: true }, 'plain'],
    ['a union of scalars', { anyOf: [{ type: 'string' }, { type: 'integer' }] }, 'plain'],
    ['a string map', STRING_MAP, 'pairs'],
    ['a nullable string map', { ...STRING_MAP, type: ['object', 'null'] }, 'pairs'],
    ['a map of maps', { type: 'object', additionalProperties: STRING_MAP }, 'pairs'],
    ['a map or null', { anyOf: [STRING_MAP, { type: 'null' }] }, 'or_null'],
    ['true', true, 'json'],
    ['an empty schema', {}, 'json'],
    ['a map of anything', { type: 'object', additionalProperties: {} }, 'json'],
    ['a map that may be a string too', { ...STRING_MAP, type: ['object', 'string'] }, 'json'],
    ['an array without items', { type: 'array' }, 'json'],
    ['a tuple', { type: 'array', prefixItems: [{ type: 'string' }], items: false }, 'json'],
    ['a union of a map and a string', { anyOf: [STRING_MAP, { type: 'string' }] }, 'json'],
    [
      'a union through a $ref',
      { anyOf: [{ $ref: '#' }, { type: 'null' }, { type: 'string' }] },
      'json',
    ],
  ])('encodes %s as %s', (_case, schema, expected) => {
    expect(strictEncodingOf(schema)).toBe(expected);
  });

  it('names the branch of an or_null union that is not null', () => {
    expect(nonNullBranch({ anyOf: [{ type: 'null' }, STRING_MAP] })).toEqual(STRING_MAP);
  });
});
