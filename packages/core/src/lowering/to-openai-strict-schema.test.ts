import { describe, expect, it } from 'vitest';
import { openAiStrictViolations } from './test-support/provider-validators.js';
import { toOpenAiStrictSchema } from './to-openai-strict-schema.js';

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

  it.each([
    [
      'a record',
      {
        type: 'object',
        properties: { h: { type: 'object', additionalProperties: { type: 'string' } } },
      },
    ],
    ['an untyped value', { type: 'object', properties: { v: {} } }],
    ['an array without items', { type: 'object', properties: { v: { type: 'array' } } }],
    ['a root that is not an object', { type: 'string' }],
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
