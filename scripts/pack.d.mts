/** Workspace packages, each after everything it depends on. */
export declare const PACK_ORDER: readonly string[];
/** Packs every package into `destination`; returns `{ name, tarball }` in pack order. */
export declare function packAll(
  destination: string,
): readonly { readonly name: string; readonly tarball: string }[];
