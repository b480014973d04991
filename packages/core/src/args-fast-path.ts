import type { z } from 'zod';

import { inheritsOnlyData } from './inherits-nothing.js';

/**
 * What zod would return for `raw`, or `undefined` when the fast path cannot tell: the caller then
 * asks zod itself, which gives every error (and every answer this does not know how to give).
 */
export type ArgsFastPath = (raw: unknown) => Record<string, unknown> | undefined;

/**
 * A validator compiled from a plain argument schema — an object (strict or strip) whose fields
 * are strings with length bounds, finite numbers or safe integers with bounds, and booleans, each
 * optional or not — that accepts exactly what zod accepts and returns the same object. Any other
 * schema gets none (`undefined`), and so does anything it reads that it has not seen before: a
 * coercion, a refinement, a transform, a format, a check kind missing from the lists below.
 *
 * Why: one zod parse of a small argument set is ~0.2 µs in a loop but several µs in a real
 * dispatch, where the file system has just evicted zod's long generic path from the caches.
 * Its answers are property-tested against zod's (`args-fast-path.test.ts`).
 */
export function compileArgsFastPath(
  schema: z.ZodObject,
  form: 'generated' | 'interpreted' = 'generated',
): ArgsFastPath | undefined {
  const def = read(schema, 'def');
  if (read(def, 'type') !== 'object' || hasChecks(def)) return undefined;
  const catchall = read(def, 'catchall');
  const strict = catchall !== undefined;
  // Only `z.strictObject` (a `never` catchall) and `z.object` (none) are understood.
  if (
    strict &&
    (read(read(catchall, 'def'), 'type') !== 'never' || hasChecks(read(catchall, 'def')))
  )
    return undefined;
  const shape = read(def, 'shape');
  if (typeof shape !== 'object' || shape === null) return undefined;
  const fields: Field[] = [];
  for (const key of Object.keys(shape)) {
    const field = compileField(key, (shape as Record<string, unknown>)[key]);
    if (field === undefined) return undefined;
    fields.push(field);
  }
  // Built on the first call: a CLI start defines every built-in tool and calls one of them.
  let parse: ArgsFastPath | undefined;
  return (raw) => {
    parse ??=
      form === 'generated' ? generatedOrInterpreted(fields, strict) : interpreted(fields, strict);
    return parse(raw);
  };
}

function generatedOrInterpreted(fields: readonly Field[], strict: boolean): ArgsFastPath {
  try {
    return generateParser(fields, strict);
  } catch {
    // No code generation here (a content security policy): the same checks, interpreted.
    return interpreted(fields, strict);
  }
}

function interpreted(fields: readonly Field[], strict: boolean): ArgsFastPath {
  return (raw) => parseFast(fields, strict, raw);
}

/**
 * The checks of `parseFast` as one function with the field names written in: V8 then reads and
 * writes each field through its own inline cache, where `input[key]` over a list of keys is a
 * generic lookup per field (~20 ns a call against ~200). Only the names, quoted by
 * `JSON.stringify`, enter the source; every check is a function passed in.
 */
function generateParser(fields: readonly Field[], strict: boolean): ArgsFastPath {
  const names = fields.map(({ key }) => JSON.stringify(key));
  const lines = [
    '"use strict";',
    'return function parseArgsFast(input) {',
    '  if (typeof input !== "object" || input === null) return undefined;',
    '  if (!inheritsOnlyData(input)) return undefined;',
  ];
  if (strict) {
    const known = names.map((name) => `key !== ${name}`).join(' && ');
    lines.push(`  for (const key in input) if (${known || 'true'}) return undefined;`);
  }
  lines.push('  const output = {};', '  let value;');
  fields.forEach(({ optional }, index) => {
    const name = names[index] ?? '';
    lines.push(`  value = input[${name}];`);
    // The same order of tests as `parseFast`: absent (or `undefined`), then the field's check.
    lines.push(
      optional
        ? `  if (value === undefined) { if (${name} in input) return undefined; }` +
            ` else if (accepts[${index}](value)) output[${name}] = value; else return undefined;`
        : `  if (value === undefined || !accepts[${index}](value)) return undefined;` +
            ` output[${name}] = value;`,
    );
  });
  lines.push('  return output;', '};');
  const build = new Function('inheritsOnlyData', 'accepts', lines.join('\n')) as (
    isData: (value: object) => boolean,
    accepts: readonly ((value: unknown) => boolean)[],
  ) => ArgsFastPath;
  return build(
    inheritsOnlyData,
    fields.map(({ accepts }) => accepts),
  );
}

interface Field {
  readonly key: string;
  readonly optional: boolean;
  readonly accepts: (value: unknown) => boolean;
}

function parseFast(
  fields: readonly Field[],
  strict: boolean,
  raw: unknown,
): Record<string, unknown> | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  // Data only (JSON's, or an effective set): arrays, class instances and exotic objects go to zod.
  if (!inheritsOnlyData(raw)) return undefined;
  const input = raw as Record<string, unknown>;
  if (strict) {
    for (const key in input) if (!isFieldKey(fields, key)) return undefined;
  }
  const output: Record<string, unknown> = {};
  for (const { key, optional, accepts } of fields) {
    const value = input[key];
    if (value === undefined) {
      // An absent optional key stays absent; a key present as `undefined` is zod's to shape.
      if (optional && !(key in input)) continue;
      return undefined;
    }
    if (!accepts(value)) return undefined;
    output[key] = value;
  }
  return output;
}

function isFieldKey(fields: readonly Field[], key: string): boolean {
  for (const field of fields) if (field.key === key) return true;
  return false;
}

function compileField(key: string, schema: unknown): Field | undefined {
  // A `__proto__` field would be set on the prototype, not as data: zod's to handle.
  if (key === '__proto__') return undefined;
  const def = read(schema, 'def');
  if (read(def, 'type') === 'optional') {
    if (hasChecks(def)) return undefined;
    const accepts = compileLeaf(read(def, 'innerType'));
    return accepts === undefined ? undefined : { key, optional: true, accepts };
  }
  const accepts = compileLeaf(schema);
  return accepts === undefined ? undefined : { key, optional: false, accepts };
}

function compileLeaf(schema: unknown): ((value: unknown) => boolean) | undefined {
  const def = read(schema, 'def');
  if (read(def, 'coerce') !== undefined && read(def, 'coerce') !== false) return undefined;
  switch (read(def, 'type')) {
    case 'string':
      return compileString(def);
    case 'number':
      return compileNumber(def);
    case 'boolean':
      return hasChecks(def) ? undefined : (value) => typeof value === 'boolean';
    default:
      return undefined;
  }
}

function compileString(def: unknown): ((value: unknown) => boolean) | undefined {
  if (read(def, 'format') !== undefined) return undefined;
  let min = 0;
  let max = Infinity;
  for (const check of checksOf(def)) {
    const kind = read(check, 'check');
    if (kind === 'min_length') min = Math.max(min, numberField(check, 'minimum'));
    else if (kind === 'max_length') max = Math.min(max, numberField(check, 'maximum'));
    else if (kind === 'length_equals') {
      const length = numberField(check, 'length');
      min = Math.max(min, length);
      max = Math.min(max, length);
    } else return undefined;
  }
  if (Number.isNaN(min) || Number.isNaN(max)) return undefined;
  return (value) => typeof value === 'string' && value.length >= min && value.length <= max;
}

function compileNumber(def: unknown): ((value: unknown) => boolean) | undefined {
  // `z.int()` is itself a `number_format` check; `.int()` adds one to the list.
  let integer = read(def, 'format') === 'safeint';
  if (read(def, 'format') !== undefined && !integer) return undefined;
  const bounds: ((value: number) => boolean)[] = [];
  for (const check of checksOf(def)) {
    const kind = read(check, 'check');
    if (kind === 'number_format') {
      if (read(check, 'format') !== 'safeint') return undefined;
      integer = true;
    } else if (kind === 'greater_than' || kind === 'less_than') {
      const limit = numberField(check, 'value');
      const inclusive = read(check, 'inclusive');
      if (Number.isNaN(limit) || typeof inclusive !== 'boolean') return undefined;
      bounds.push(boundCheck(kind, limit, inclusive));
    } else return undefined;
  }
  const whole = integer;
  return (value) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return false;
    if (whole && !Number.isSafeInteger(value)) return false;
    for (const bound of bounds) if (!bound(value)) return false;
    return true;
  };
}

function boundCheck(
  kind: 'greater_than' | 'less_than',
  limit: number,
  inclusive: boolean,
): (value: number) => boolean {
  if (kind === 'greater_than') return inclusive ? (v) => v >= limit : (v) => v > limit;
  return inclusive ? (v) => v <= limit : (v) => v < limit;
}

// A zod check's settings live on its own `_zod.def`.
function checksOf(def: unknown): unknown[] {
  const checks = read(def, 'checks');
  if (checks === undefined) return [];
  if (!Array.isArray(checks)) return [UNKNOWN_CHECK];
  return checks.map((check: unknown) => read(read(check, '_zod'), 'def') ?? UNKNOWN_CHECK);
}

function hasChecks(def: unknown): boolean {
  const checks = read(def, 'checks');
  return checks !== undefined && (!Array.isArray(checks) || checks.length > 0);
}

// A check whose settings cannot be read: no kind listed above, so the schema gets no fast path.
const UNKNOWN_CHECK = Object.freeze({ check: '(unreadable)' });

function numberField(holder: unknown, key: string): number {
  const value = read(holder, key);
  return typeof value === 'number' ? value : NaN;
}

function read(holder: unknown, key: string): unknown {
  return typeof holder === 'object' && holder !== null
    ? (holder as Record<string, unknown>)[key]
    : undefined;
}
