import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { compileArgsFastPath } from './args-fast-path.js';
import { INHERITS_NOTHING } from './inherits-nothing.js';

// Schemas the fast path takes (every field kind and check kind it knows, strict and strip), each
// with values its fields accept, so the samples below are often valid and the fast path answers.
const COMPILED: Record<string, { schema: z.ZodObject; valid: Record<string, unknown[]> }> = {
  'read_file-like': {
    schema: z.strictObject({
      path: z.string().min(1).max(4096).describe('a path'),
      glob: z.boolean().optional(),
      offset: z.int().min(0).optional(),
      limit: z.int().min(1).optional(),
    }),
    valid: {
      path: ['a', 'src/index.ts', 'x'.repeat(4096)],
      offset: [0, 7],
      limit: [1, 2 ** 53 - 1],
    },
  },
  'bounds of every kind': {
    schema: z.strictObject({
      exact: z.string().length(3),
      short: z.string().max(2).optional(),
      ratio: z.number().gt(0).lt(1),
      score: z.number().min(-5).max(5).optional(),
      count: z.number().int().max(10).optional(),
      flag: z.boolean(),
    }),
    valid: {
      exact: ['abc', '\u0000\u0000\u0000'],
      short: ['', 'ab'],
      ratio: [0.5, Number.MIN_VALUE],
      score: [-5, 5, -0],
      count: [10, -(2 ** 53) + 1],
      flag: [true, false],
    },
  },
  'strip, unbounded': {
    schema: z.object({ name: z.string(), size: z.number().optional() }),
    valid: { name: ['', 'n'], size: [-1e300, 0] },
  },
  'no fields': { schema: z.strictObject({}), valid: {} },
  // Names the generated parser must quote, not execute: quotes, backslashes, line separators.
  'odd field names': {
    schema: z.strictObject({
      'a"b': z.string(),
      'x\\y': z.boolean().optional(),
      '\u2028': z.number().optional(),
      '': z.string().optional(),
      '0': z.boolean().optional(),
      constructor: z.string().optional(),
      '"]; throw 1; //': z.boolean().optional(),
    }),
    valid: {
      'a"b': ['v'],
      'x\\y': [true],
      '\u2028': [1],
      '': ['e'],
      '0': [true],
      constructor: ['c'],
      '"]; throw 1; //': [false],
    },
  },
};

// Schemas it must leave to zod: each holds one thing the fast path does not implement.
const LEFT_TO_ZOD: Record<string, z.ZodObject> = {
  'string format': z.strictObject({ to: z.email() }),
  regex: z.strictObject({ id: z.string().regex(/^[a-z]+$/) }),
  'starts with': z.strictObject({ url: z.string().startsWith('https://') }),
  'trim (a transform)': z.strictObject({ name: z.string().trim() }),
  'lower case (a transform)': z.strictObject({ name: z.string().toLowerCase() }),
  coerce: z.strictObject({ n: z.coerce.number() }),
  'field refinement': z.strictObject({ n: z.number().refine((n) => n !== 3) }),
  'object refinement': z.strictObject({ a: z.string() }).refine((value) => value.a !== 'x'),
  default: z.strictObject({ n: z.number().default(1) }),
  transform: z.strictObject({ n: z.string().transform((text) => text.length) }),
  loose: z.looseObject({ a: z.string() }),
  'catchall schema': z.object({ a: z.string() }).catchall(z.string()),
  enum: z.strictObject({ mode: z.enum(['a', 'b']) }),
  literal: z.strictObject({ mode: z.literal('a') }),
  nullable: z.strictObject({ a: z.string().nullable() }),
  'nested object': z.strictObject({ inner: z.strictObject({ a: z.string() }) }),
  array: z.strictObject({ items: z.array(z.string()) }),
  int32: z.strictObject({ n: z.int32() }),
  'multiple of': z.strictObject({ n: z.number().multipleOf(2) }),
  'optional with a default inside': z.strictObject({ n: z.number().default(1).optional() }),
  'a __proto__ field': z.strictObject({ ['__proto__']: z.string() }),
};

const FORMS = ['generated', 'interpreted'] as const;

const EXTRA_KEYS = ['extra', '__proto__', 'constructor', 'toString', 'hasOwnProperty'];

const leafValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('', 'a', 'ab', 'abc', 'abcd', 'x'.repeat(4096), 'x'.repeat(4097), '\u0000'),
  fc.integer({ min: -20, max: 20 }),
  fc.double(),
  fc.constantFrom(0, -0, 1, 0.5, 1e21, 2 ** 53, 2 ** 53 - 1, -(2 ** 53), NaN, Infinity, -Infinity),
  fc.boolean(),
  fc.constantFrom(undefined, null, [], {}, '1', 'true', 1n),
);

// An argument object as a model's JSON would give it (own data properties, `__proto__` as data):
// any subset of the schema's keys, valid values often, extra keys now and then, in either order;
// and now and then one of the shapes JSON cannot make.
function inputFor({ schema, valid }: (typeof COMPILED)[string]): fc.Arbitrary<unknown> {
  const keys = Object.keys(schema.shape);
  const fieldValue = (key: string): fc.Arbitrary<unknown> => {
    const good = valid[key] ?? [];
    if (good.length === 0) return leafValue;
    return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...good) }, leafValue);
  };
  const required = keys.filter((key) => !schema.shape[key]?.safeParse(undefined).success);
  const record = Object.fromEntries(keys.map((key) => [key, fieldValue(key)]));
  // Mostly every required key (so a sample can pass), sometimes any subset.
  const fields = fc.oneof(
    { weight: 3, arbitrary: fc.record(record, { requiredKeys: required }) },
    fc.record(record, { requiredKeys: [] }),
  );
  const extras = fc.array(fc.tuple(fc.constantFrom(...EXTRA_KEYS), leafValue), { maxLength: 2 });
  const plain = fc
    .tuple(fields, fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, extras), fc.boolean())
    .map(([own, extra, extraFirst]) =>
      Object.fromEntries(
        extraFirst ? [...extra, ...Object.entries(own)] : [...Object.entries(own), ...extra],
      ),
    );
  return fc.oneof(
    { weight: 12, arbitrary: plain },
    { weight: 1, arbitrary: plain.map((value) => Object.assign(Object.create(null), value)) },
    // An effective argument set as the dispatch builds one.
    {
      weight: 2,
      arbitrary: plain.map((value) => Object.assign(Object.create(INHERITS_NOTHING), value)),
    },
    { weight: 1, arbitrary: plain.map((value) => Object.assign(Object.create(value), {})) },
    { weight: 1, arbitrary: plain.map((value) => Object.values(value)) },
    { weight: 1, arbitrary: fc.anything() },
  );
}

describe('compileArgsFastPath', () => {
  it.each(Object.entries(COMPILED))('compiles a plain schema (%s)', (_, { schema }) => {
    expect(compileArgsFastPath(schema)).toBeTypeOf('function');
  });

  it.each(Object.entries(LEFT_TO_ZOD))('leaves every other schema to zod (%s)', (_, schema) => {
    expect(compileArgsFastPath(schema)).toBeUndefined();
  });

  it.each(
    Object.entries(COMPILED).flatMap(([label, entry]) =>
      FORMS.map((form) => [`${label}, ${form}`, entry, form] as const),
    ),
  )('accepts only what zod accepts, and returns what zod returns (%s)', (_, entry, form) => {
    const { schema } = entry;
    const fast = compileArgsFastPath(schema, form);
    if (fast === undefined) throw new Error('not compiled');
    let answered = 0;
    fc.assert(
      fc.property(inputFor(entry), (input) => {
        const quick = fast(input);
        if (quick === undefined) return;
        answered += 1;
        const parsed = schema.safeParse(input);
        expect(parsed.success).toBe(true);
        expect(Object.keys(quick)).toEqual(Object.keys(parsed.data ?? {}));
        expect(quick).toStrictEqual(parsed.data);
        // A copy, as zod's is: later steps freeze and project it, never the caller's object.
        expect(quick).not.toBe(input);
      }),
      { numRuns: 3000 },
    );
    // The samples reach the accepting branch often: the equivalence above is not vacuous.
    expect(answered).toBeGreaterThan(150);
  });

  describe.each(FORMS)('%s', (form) => {
    it('takes the common call itself rather than handing it on', () => {
      const fast = compileArgsFastPath(
        COMPILED['read_file-like']?.schema ?? z.strictObject({}),
        form,
      );
      expect(fast?.({ path: 'src/index.ts' })).toEqual({ path: 'src/index.ts' });
      expect(fast?.(JSON.parse('{"path":"a","offset":0,"limit":5,"glob":false}'))).toEqual({
        path: 'a',
        glob: false,
        offset: 0,
        limit: 5,
      });
    });

    it('hands on what zod shapes or refuses: unknown keys, undefined values, bounds, non-integers', () => {
      const fast = compileArgsFastPath(
        COMPILED['read_file-like']?.schema ?? z.strictObject({}),
        form,
      );
      for (const input of [
        { path: 'a', extra: 1 },
        JSON.parse('{"path":"a","__proto__":{"glob":true}}'),
        { path: 'a', glob: undefined },
        { path: '' },
        { path: 'x'.repeat(4097) },
        { path: 'a', offset: -1 },
        { path: 'a', offset: 1.5 },
        { path: 'a', limit: 0 },
        { path: 'a', offset: 2 ** 53 },
        { path: 'a', glob: 'true' },
        { path: 1 },
        [],
        null,
        'path',
      ]) {
        expect(fast?.(input)).toBeUndefined();
      }
    });

    it('reads a field once: a getter cannot pass one value to the check and another on', () => {
      const fast = compileArgsFastPath(
        COMPILED['strip, unbounded']?.schema ?? z.strictObject({}),
        form,
      );
      let reads = 0;
      const input = {
        get name() {
          reads += 1;
          return reads === 1 ? 'checked' : 42;
        },
      };
      expect(fast?.(input)).toEqual({ name: 'checked' });
    });
  });
});
