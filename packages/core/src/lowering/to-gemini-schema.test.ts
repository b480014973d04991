import { describe, expect, it } from 'vitest';
import { geminiViolations } from './test-support/provider-validators.js';
import { toGeminiSchema } from './to-gemini-schema.js';

function declaration(parameters: unknown) {
  return { functionDeclarations: [{ name: 'f', description: 'd', parameters }] };
}

describe('toGeminiSchema', () => {
  it('upper-cases types and drops additionalProperties, $schema and string bounds', () => {
    const schema = {
      $schema: 'x',
      type: 'object',
      properties: {
        a: { type: 'string', minLength: 1, maxLength: 5, pattern: '^a', description: 'A' },
      },
      required: ['a'],
      additionalProperties: false,
    };

    expect(toGeminiSchema(schema)).toEqual({
      type: 'OBJECT',
      properties: { a: { type: 'STRING', description: 'A' } },
      required: ['a'],
    });
  });

  it('turns a union with null into nullable and exclusive bounds into nothing', () => {
    const schema = {
      type: 'object',
      properties: {
        n: { type: ['integer', 'null'], exclusiveMinimum: 0, minimum: 1, maximum: 20 },
      },
    };

    const lowered = toGeminiSchema(schema);

    expect(lowered?.['properties']).toEqual({
      n: { type: 'INTEGER', nullable: true, minimum: 1, maximum: 20 },
    });
    expect(geminiViolations(declaration(lowered))).toEqual([]);
  });

  it('keeps string enums, turns const into a one-value enum and drops numeric enums', () => {
    const schema = {
      type: 'object',
      properties: {
        mode: { type: 'string', enum: ['a', 'b'] },
        fixed: { const: 'x' },
        level: { type: 'integer', enum: [1, 2] },
      },
    };

    expect(toGeminiSchema(schema)?.['properties']).toEqual({
      mode: { type: 'STRING', enum: ['a', 'b'] },
      fixed: { type: 'STRING', enum: ['x'] },
      level: { type: 'INTEGER' },
    });
  });

  it('keeps an open map as an OBJECT without properties (Gemini rejects an empty map)', () => {
    const schema = {
      type: 'object',
      properties: {
        args: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} },
      },
    };

    const lowered = toGeminiSchema(schema);

    expect(lowered?.['properties']).toEqual({ args: { type: 'OBJECT' } });
    expect(geminiViolations(declaration(lowered))).toEqual([]);
  });

  it('spells a multi-type union as anyOf', () => {
    const schema = { type: 'object', properties: { v: { type: ['string', 'integer'] } } };

    const lowered = toGeminiSchema(schema);

    expect(lowered?.['properties']).toEqual({
      v: { anyOf: [{ type: 'STRING' }, { type: 'INTEGER' }] },
    });
    expect(geminiViolations(declaration(lowered))).toEqual([]);
  });

  it('folds an anyOf of one type and null into a nullable type', () => {
    const schema = {
      type: 'object',
      properties: { v: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
    };

    expect(toGeminiSchema(schema)?.['properties']).toEqual({
      v: { type: 'STRING', nullable: true },
    });
  });

  it('lowers array items and keeps item counts', () => {
    const schema = {
      type: 'object',
      properties: { l: { type: 'array', items: { type: 'string', maxLength: 3 }, maxItems: 4 } },
    };

    expect(toGeminiSchema(schema)?.['properties']).toEqual({
      l: { type: 'ARRAY', items: { type: 'STRING' }, maxItems: 4 },
    });
  });

  it('returns undefined for an object without properties', () => {
    expect(
      toGeminiSchema({ type: 'object', properties: {}, additionalProperties: false }),
    ).toBeUndefined();
  });
});
