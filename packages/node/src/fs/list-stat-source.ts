import type { FsAtAddon } from '@toolhost/fs-at';

/**
 * Where a listing's per-entry lstat comes from: the `@toolhost/fs-at` addon's batched
 * `fstatat` below the open directory's descriptor, or Node's `lstatSync` through procfs.
 */
export type ListStatSourceKind = 'native' | 'node';

let loading: Promise<FsAtAddon | undefined> | undefined;
let chosen: ListStatSourceKind = 'native';

// An optional dependency: absent (`--omit=optional`, a bundle without it) or unbuilt, the
// listing lstats through Node's fs. Imported once, on the first listing.
function loadAddon(): Promise<FsAtAddon | undefined> {
  loading ??= import('@toolhost/fs-at').then(
    (module) => module.loadFsAt(),
    () => undefined,
  );
  return loading;
}

/** The addon a listing starting now lstats through; `undefined` means Node's fs. */
export async function listStatAddon(): Promise<FsAtAddon | undefined> {
  const addon = await loadAddon();
  return chosen === 'native' ? addon : undefined;
}

/** The sources this host can use: both where the addon loads, else Node's alone. */
export async function listStatSources(): Promise<readonly ListStatSourceKind[]> {
  return (await loadAddon()) === undefined ? ['node'] : ['native', 'node'];
}

/**
 * Picks the source later listings use, so tests (and the bench) run a listing over both. The
 * default, `native`, is the addon where it loads and Node's fs where it does not.
 */
export function setListStatSource(kind: ListStatSourceKind): void {
  chosen = kind;
}
