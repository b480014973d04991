import { inheritsOnlyData } from '../inherits-nothing.js';

/** How `encodeJson` writes an object's keys. */
export interface EncodeJsonOptions {
  /** Sort keys in UTF-16 code-unit order: the canonical form an identity is digested from. */
  readonly sortKeys: boolean;
}

/**
 * The JSON text of `value` when JSON can hold it exactly, else `undefined`. Stricter than
 * `JSON.stringify`, which silently turns a `Date` into a string, `NaN` into `null` or a `Map`
 * into `{}`: a journal identity or a replayed result built on such a value would be a different
 * value. Plain objects and arrays only; an `undefined` property is absent (as in JSON); a cycle,
 * a class instance, a bigint, a function, a hole or a non-finite number is refused. A value
 * reached twice on separate branches is encoded at each place (only a back-reference is a cycle).
 */
export function encodeJson(value: unknown, options: EncodeJsonOptions): string | undefined {
  try {
    return encodeValue(value, options.sortKeys, new Set());
  } catch {
    // A getter that throws, or nesting past the stack: no faithful encoding.
    return undefined;
  }
}

function encodeValue(
  value: unknown,
  sortKeys: boolean,
  ancestors: Set<object>,
): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      // Well-formed JSON.stringify (ES2019) escapes lone surrogates, so the text is valid UTF-16.
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : undefined;
    case 'object':
      if (value === null) return 'null';
      if (ancestors.has(value)) return undefined;
      ancestors.add(value);
      try {
        return Array.isArray(value)
          ? encodeArray(value, sortKeys, ancestors)
          : encodeObject(value, sortKeys, ancestors);
      } finally {
        ancestors.delete(value);
      }
    default:
      return undefined;
  }
}

function encodeArray(
  array: readonly unknown[],
  sortKeys: boolean,
  ancestors: Set<object>,
): string | undefined {
  if (Object.getPrototypeOf(array) !== Array.prototype) return undefined;
  const items: string[] = [];
  for (let index = 0; index < array.length; index++) {
    if (!Object.hasOwn(array, index)) return undefined;
    const item = encodeValue(array[index], sortKeys, ancestors);
    if (item === undefined) return undefined;
    items.push(item);
  }
  return `[${items.join(',')}]`;
}

function encodeObject(
  object: object,
  sortKeys: boolean,
  ancestors: Set<object>,
): string | undefined {
  // Anything but data (a class instance) is something JSON would misread.
  if (!inheritsOnlyData(object)) return undefined;
  const keys = Object.keys(object);
  if (sortKeys) keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const members: string[] = [];
  for (const key of keys) {
    const member: unknown = (object as Record<string, unknown>)[key];
    if (member === undefined) continue;
    const encoded = encodeValue(member, sortKeys, ancestors);
    if (encoded === undefined) return undefined;
    members.push(`${JSON.stringify(key)}:${encoded}`);
  }
  return `{${members.join(',')}}`;
}
