import type { FsAtAddon } from '@toolhost/fs-at';

/** How a search reads its files: the `@toolhost/fs-at` addon's `openat` batches, or Node's fs. */
export type SearchReaderKind = 'native' | 'node';

let loading: Promise<FsAtAddon | undefined> | undefined;
let chosen: SearchReaderKind = 'native';

// An optional dependency: absent (`--omit=optional`, a bundle without it) or unbuilt, the
// search reads through Node's fs. Imported once, on the first search.
function loadAddon(): Promise<FsAtAddon | undefined> {
  loading ??= import('@toolhost/fs-at').then(
    (module) => module.loadFsAt(),
    () => undefined,
  );
  return loading;
}

/** The addon a search starting now reads through; `undefined` means Node's fs. */
export async function searchFsAt(): Promise<FsAtAddon | undefined> {
  const addon = await loadAddon();
  return chosen === 'native' ? addon : undefined;
}

/** The readers this host can use: both where the addon loads, else Node's alone. */
export async function searchReaders(): Promise<readonly SearchReaderKind[]> {
  return (await loadAddon()) === undefined ? ['node'] : ['native', 'node'];
}

/**
 * Picks the reader later searches use, so tests (and the bench) run a search over both. The
 * default, `native`, is the addon where it loads and Node's fs where it does not.
 */
export function setSearchReader(kind: SearchReaderKind): void {
  chosen = kind;
}
