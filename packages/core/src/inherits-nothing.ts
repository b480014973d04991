/**
 * An empty, frozen object with no prototype: the prototype of every effective argument set.
 * A set built on it reaches no `Object.prototype` member (`toString`, the `__proto__` setter)
 * whatever its keys are named, as with `Object.create(null)`; but V8 keeps an object with a
 * prototype in fast mode, where a null-prototype one is a dictionary, every read and key walk
 * of it a hash lookup (~10x, on every dispatch's argument checks).
 */
export const INHERITS_NOTHING: object = Object.freeze(Object.create(null) as object);

/**
 * True for an object whose prototype is `Object.prototype`, none, or `INHERITS_NOTHING`: what
 * JSON, `Object.create(null)` and an effective argument set make, data only. A class instance,
 * an array or an exotic object is not.
 */
export function inheritsOnlyData(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null || prototype === INHERITS_NOTHING;
}
