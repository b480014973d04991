import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { zodObjectKeys } from './zod-object-keys.js';

const base = z.strictObject({ a: z.string(), b: z.number().optional() });

describe('zodObjectKeys', () => {
  it.each([
    ['a strict object', base],
    ['a loose object (declared keys only)', z.looseObject({ a: z.string(), b: z.number() })],
    ['a refined object', base.refine(() => true)],
    ['a transform (pipe)', base.transform((value) => value)],
    ['an explicit pipe', base.pipe(z.any())],
    ['readonly', base.readonly()],
    ['default', base.default({ a: '' })],
    ['catch', base.catch({ a: '' })],
    ['optional', base.optional()],
    ['nullable', base.nullable()],
    [
      'nested wrappers',
      base
        .readonly()
        .optional()
        .transform((value) => value),
    ],
  ])('reads the keys of %s', (_label, schema: z.ZodType) => {
    expect([...(zodObjectKeys(schema) ?? ['(unknown)'])].sort()).toEqual(['a', 'b']);
  });

  it('reads every side of an intersection or union', () => {
    const other = z.object({ c: z.string() });
    expect([...(zodObjectKeys(z.intersection(base, other)) ?? [])].sort()).toEqual(['a', 'b', 'c']);
    expect([...(zodObjectKeys(z.union([base, other])) ?? [])].sort()).toEqual(['a', 'b', 'c']);
  });

  it.each([
    ['a record', z.record(z.string(), z.string())],
    ['a lazy', z.lazy(() => base)],
    ['a primitive', z.string()],
    ['unknown', z.unknown()],
    ['a union with an unknowable option', z.union([base, z.record(z.string(), z.string())])],
  ])('cannot know the keys of %s (callers deny)', (_label, schema: z.ZodType) => {
    expect(zodObjectKeys(schema)).toBeUndefined();
  });
});
