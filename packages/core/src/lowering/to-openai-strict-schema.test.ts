import { describe, expect, it } from 'vitest';
import { openAiStrictViolations } from './test-support/provider-validators.js';
import { JSON_HINT, PAIRS_HINT, toOpenAiStrictSchema } from './to-openai-strict-schema.js';

describe('toOpenAiStrictSchema', () => {
  it('requires every property and makes the optional ones nullable', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'integer', minimum: 0 } },
      required: ['a'],
      additionalProperties: false,
    };

    expect(toOpenAiStrictSchema(schema)).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: ['integer', 'null'], minimum: 0 } },
      required: ['a', 'b'],
      additionalProperties: false,
    });
  });

  it('closes nested objects and lowers array items recursively', () => {
    const schema = {
      type: 'object',
      properties: {
        list: { type: 'array', items: { type: 'object', properties: { x: { type: 'boolean' } } } },
      },
      required: ['list'],
    };

    const lowered = toOpenAiStrictSchema(schema);

    expect(lowered).toEqual({
      type: 'object',
      properties: {
        list: {
          type: 'array',
          items: {
            type: 'object',
            properties: { x: { type: ['boolean', 'null'] } },
            required: ['x'],
            additionalProperties: false,
          },
        },
      },
      required: ['list'],
      additionalProperties: false,
    });
    expect(openAiStrictViolations(lowered)).toEqual([]);
  });

  it('adds null to an optional enum and a null branch to an optional anyOf or const', () => {
    const schema = {
      type: 'object',
      properties: {
        mode: { type: 'string', enum: ['a', 'b'] },
        either: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        fixed: { const: 'x', description: 'd' },
      },
    };

    const lowered = toOpenAiStrictSchema(schema);

    expect(lowered?.['properties']).toEqual({
      mode: { type: ['string', 'null'], enum: ['a', 'b', null] },
      either: { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] },
      fixed: { description: 'd', anyOf: [{ const: 'x' }, { type: 'null' }] },
    });
    expect(openAiStrictViolations(lowered)).toEqual([]);
  });

  it('drops keywords strict mode does not support, and unsupported formats', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        a: {
          type: 'string',
          minLength: 1,
          maxLength: 9,
          default: 'x',
          format: 'uri',
          pattern: '^a',
        },
      },
      required: ['a'],
    };

    expect(toOpenAiStrictSchema(schema)?.['properties']).toEqual({
      a: { type: 'string', pattern: '^a' },
    });
  });

  it('lowers a free-key string map to a list of {name, value} pairs', () => {
    const schema = {
      type: 'object',
      properties: {
        headers: {
          description: 'Request headers.',
          type: 'object',
          propertyNames: { type: 'string', minLength: 1, pattern: '^[a-z-]+$' },
          additionalProperties: { type: 'string', maxLength: 9 },
          maxProperties: 8,
        },
      },
    };

    const lowered = toOpenAiStrictSchema(schema);

    expect(lowered?.['properties']).toEqual({
      headers: {
        type: ['array', 'null'],
        description: `Request headers. ${PAIRS_HINT}`,
        maxItems: 8,
        items: {
          type: 'object',
          properties: {
            name: { type: 'string', pattern: '^[a-z-]+$' },
            value: { type: 'string' },
          },
          required: ['name', 'value'],
          additionalProperties: false,
        },
      },
    });
    expect(openAiStrictViolations(lowered)).toEqual([]);
  });

  it.each([
    ['an untyped value', {}],
    ['a map of anything', { type: 'object', additionalProperties: {} }],
    ['a map allowing any value', { type: 'object', additionalProperties: true }],
    [
      'a map with declared keys too',
      {
        type: 'object',
        properties: { a: { type: 'string' } },
        additionalProperties: { type: 'string' },
      },
    ],
    ['an array without items', { type: 'array' }],
    ['a tuple', { type: 'array', prefixItems: [{ type: 'string' }], items: false }],
    [
      'a union that needs a branch tag',
      { anyOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'string' } }] },
    ],
    [
      'a union with an optional key',
      { anyOf: [{ type: 'integer' }, { type: 'object', properties: { a: { type: 'string' } } }] },
    ],
  ])('lowers %s to JSON text', (_case, value) => {
    const schema = { type: 'object', properties: { v: value }, required: ['v'] };

    const lowered = toOpenAiStrictSchema(schema);

    expect(lowered?.['properties']).toEqual({ v: { type: 'string', description: JSON_HINT } });
    expect(openAiStrictViolations(lowered)).toEqual([]);
  });

  it('lowers each item of an array of anything to JSON text', () => {
    const schema = {
      type: 'object',
      properties: { v: { type: 'array', items: true } },
      required: ['v'],
    };

    expect(toOpenAiStrictSchema(schema)?.['properties']).toEqual({
      v: { type: 'array', items: { type: 'string', description: JSON_HINT } },
    });
  });

  it('keeps a nullable map a nullable pair list', () => {
    const schema = {
      type: 'object',
      properties: {
        env: {
          anyOf: [{ type: 'object', additionalProperties: { type: 'string' } }, { type: 'null' }],
        },
      },
      required: ['env'],
    };

    const lowered = toOpenAiStrictSchema(schema);

    expect(lowered?.['properties']).toMatchObject({
      env: { anyOf: [{ type: 'array', description: PAIRS_HINT }, { type: 'null' }] },
    });
    expect(openAiStrictViolations(lowered)).toEqual([]);
  });

  it('re-encodes what a $defs entry holds and keeps the $ref to it', () => {
    const schema = {
      type: 'object',
      properties: { h: { $ref: '#/$defs/headers' } },
      required: ['h'],
      $defs: { headers: { type: 'object', additionalProperties: { type: 'string' } } },
    };

    const lowered = toOpenAiStrictSchema(schema);

    expect(lowered?.['properties']).toEqual({ h: { $ref: '#/$defs/headers' } });
    expect(lowered?.['$defs']).toMatchObject({
      headers: { type: 'array', description: PAIRS_HINT },
    });
  });

  it.each([
    ['a root that is not an object', { type: 'string' }],
    ['a root that is a map', { type: 'object', additionalProperties: { type: 'string' } }],
    ['a root of anything', {}],
    ['a root union', { anyOf: [{ type: 'object', properties: {} }] }],
  ])('has no strict form for %s', (_case, schema) => {
    expect(toOpenAiStrictSchema(schema)).toBeUndefined();
  });

  it('never edits its input', () => {
    const schema = Object.freeze({
      type: 'object',
      properties: Object.freeze({ a: Object.freeze({ type: 'string' }) }),
    });

    expect(() => toOpenAiStrictSchema(schema)).not.toThrow();
    expect(schema.properties.a).toEqual({ type: 'string' });
  });
});
