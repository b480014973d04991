import { z } from 'zod';

/**
 * The top-level keys a zod argument schema declares, seen through the wrappers a tool author may
 * put around its object (refinements, transforms and pipes, readonly, default, catch, optional).
 * `undefined` when they cannot be known (a lazy, a record, a custom type): callers deny then,
 * since a key set guessed too small would let a tainted key pass as "not a parameter".
 */
export function zodObjectKeys(schema: z.ZodType, depth = 0): ReadonlySet<string> | undefined {
  // A schema is a tree the author wrote, but a bound keeps a pathological one from recursing on.
  if (depth > MAX_DEPTH) return undefined;
  const next = depth + 1;
  if (schema instanceof z.ZodObject) return new Set(Object.keys(schema.shape));
  // The input side is what the effective args are checked against, so its keys are the params.
  if (schema instanceof z.ZodPipe) return zodObjectKeys(schema.in as z.ZodType, next);
  if (
    schema instanceof z.ZodReadonly ||
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodPrefault ||
    schema instanceof z.ZodCatch ||
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodNonOptional
  ) {
    return zodObjectKeys(schema.unwrap() as z.ZodType, next);
  }
  // Either side (or any option) may carry a key, so each one's keys are parameters.
  if (schema instanceof z.ZodIntersection) {
    return unionOf([schema.def.left as z.ZodType, schema.def.right as z.ZodType], next);
  }
  if (schema instanceof z.ZodUnion) return unionOf(schema.options as z.ZodType[], next);
  return undefined;
}

const MAX_DEPTH = 32;

function unionOf(parts: readonly z.ZodType[], depth: number): ReadonlySet<string> | undefined {
  const keys = new Set<string>();
  for (const part of parts) {
    const partKeys = zodObjectKeys(part, depth);
    if (partKeys === undefined) return undefined;
    for (const key of partKeys) keys.add(key);
  }
  return keys;
}
