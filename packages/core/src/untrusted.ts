// The brand key is module-private: only `unwrapUntrusted` can read a branded value back.
const UNTRUSTED: unique symbol = Symbol('toolhost.untrusted');

/**
 * A value that came from the outside world (a tool result, a media attachment). It is not a
 * string, so it cannot be concatenated into an instruction or passed where trusted text is typed;
 * it is unwrapped once, at the single placement site (a tool or user position).
 */
export interface Untrusted<T> {
  readonly [UNTRUSTED]: T;
}

/** Brands a value as untrusted. */
export function markUntrusted<T>(value: T): Untrusted<T> {
  return Object.freeze({ [UNTRUSTED]: value });
}

/** Reads a branded value back; call it only where the value is placed in a tool or user position. */
export function unwrapUntrusted<T>(value: Untrusted<T>): T {
  return value[UNTRUSTED];
}

/** True when the value carries the untrusted brand. */
export function isUntrusted(value: unknown): value is Untrusted<unknown> {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, UNTRUSTED);
}
