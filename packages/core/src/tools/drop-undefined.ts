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
  return Object.fromEntries(
    Object.entries(value).filter(([, entry]) => entry !== undefined),
  ) as Defined<T>;
}
