type RequiredKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? never : K }[keyof T];
type OptionalKeys<T> = Exclude<keyof T, RequiredKeys<T>>;

/** `T` with every possibly-undefined key made optional and its `undefined` removed. */
export type Defined<T> = { [K in RequiredKeys<T>]: T[K] } & {
  [K in OptionalKeys<T>]?: Exclude<T[K], undefined>;
};

/**
 * Drops keys whose value is `undefined`, so a request built from optional args satisfies
 * `exactOptionalPropertyTypes` and a host never sees a key it did not get.
 */
export function dropUndefined<T extends object>(value: T): Defined<T> {
  // A plain loop: entries → filter → fromEntries builds two arrays per call on a hot path.
  const defined: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const entry = (value as Record<string, unknown>)[key];
    if (entry === undefined) continue;
    // An own `__proto__` key stays a key, as fromEntries would keep it, never a prototype.
    if (key === '__proto__') {
      Object.defineProperty(defined, key, { value: entry, enumerable: true, writable: true });
    } else defined[key] = entry;
  }
  return defined as Defined<T>;
}
