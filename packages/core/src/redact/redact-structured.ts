import { mayHoldSecretShape, redactSecretShapedText } from './redact-secret-shaped-text.js';
import { redactText } from './redact-text.js';

/** How `redactStructured` reads a value. */
export interface RedactStructuredOptions {
  /** Applied to every string leaf before it is redacted (a clip, a media scrub). */
  readonly leaf?: (text: string) => string;
  /**
   * Once this many characters of redacted leaf text were kept, every later string leaf (in
   * serialisation order) is kept empty: a reader of the serialised text's first `budget`
   * characters sees the same text, and a megabyte past it is never redacted.
   */
  readonly budget?: number;
}

interface WalkState {
  readonly leaf: (text: string) => string;
  readonly ancestors: object[];
  budget: number;
}

/**
 * A copy of `value` as JSON would see it (`toJSON` called, boxed primitives unboxed), with every
 * string leaf and every object key redacted before anything is serialised, so no escape a
 * serialiser writes (`\n`, `\"`, `\u0000`) can glue a secret to a letter the detector reads as
 * part of a word. A string under a key is also read joined to it (`"token": "…"`): a shape may
 * span a key and its value. Numbers, booleans, null, bigints, functions and symbols are kept for
 * the serialiser to handle (a bigint still makes JSON throw); a cycle throws a TypeError, as
 * `JSON.stringify` does.
 */
export function redactStructured(value: unknown, options: RedactStructuredOptions = {}): unknown {
  const state: WalkState = {
    leaf: options.leaf ?? identity,
    ancestors: [],
    budget: options.budget ?? Number.POSITIVE_INFINITY,
  };
  return walk(value, '', undefined, state);
}

/** An object key as every projection shows it. */
export function redactKey(key: string): string {
  return redactText(key);
}

/**
 * A string leaf as every projection shows it: redacted on its own, then joined to its (already
 * redacted) key, so `{ "password": "hunter2" }` loses its value as the serialised form would.
 */
export function redactLeaf(text: string, shownKey?: string): string {
  const redacted = redactText(text);
  if (shownKey === undefined) return redacted;
  const prefix = `"${shownKey}": "`;
  // Only a key that can open a shape is worth the joined pass over the whole value.
  if (!mayHoldSecretShape(`${prefix}x"`)) return redacted;
  const joined = redactSecretShapedText(`${prefix}${redacted}"`);
  if (joined === `${prefix}${redacted}"`) return redacted;
  if (!joined.startsWith(prefix)) return redacted;
  const value = joined.slice(prefix.length);
  return value.endsWith('"') ? value.slice(0, -1) : value;
}

function identity(text: string): string {
  return text;
}

function walk(
  value: unknown,
  key: string,
  shownKey: string | undefined,
  state: WalkState,
): unknown {
  let current = value;
  if (typeof current === 'object' && current !== null && hasToJson(current)) {
    current = current.toJSON(key);
  }
  if (current instanceof String || current instanceof Number || current instanceof Boolean) {
    current = current.valueOf();
  }
  if (typeof current === 'string') {
    if (state.budget <= 0) return '';
    const shown = redactLeaf(state.leaf(current), shownKey);
    state.budget -= shown.length;
    return shown;
  }
  if (typeof current !== 'object' || current === null) return current;
  const { ancestors } = state;
  if (ancestors.includes(current)) throw new TypeError('cyclic value');
  ancestors.push(current);
  try {
    if (Array.isArray(current)) {
      return current.map((item: unknown, index) => walk(item, String(index), undefined, state));
    }
    const copy: Record<string, unknown> = {};
    for (const name of Object.keys(current)) {
      const shown = redactKey(name);
      const item = walk((current as Record<string, unknown>)[name], name, shown, state);
      defineField(copy, shown, item);
    }
    return copy;
  } finally {
    ancestors.pop();
  }
}

function hasToJson(value: object): value is { toJSON: (key: string) => unknown } {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function';
}

/**
 * Sets `key` as an own data property, as `Object.fromEntries` would: a `__proto__` key in
 * model-chosen data stays data instead of becoming the copy's prototype.
 */
export function defineField(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else target[key] = value;
}
