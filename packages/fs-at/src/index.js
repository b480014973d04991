// Loads the native addon, or reports `undefined` when it was not built (no compiler at install,
// another OS, another ABI) or is malformed. Never throws: the caller falls back to its
// JavaScript path, which keeps every check.
import { createRequire } from 'node:module';

const ADDON_PATH = '../build/Release/fs_at.node';

/** Per-file statuses below zero that are not `-errno` (see `index.d.ts`). */
export const FS_AT_STATUS = Object.freeze({
  tooLarge: -10001,
  notRegular: -10002,
  hardLink: -10003,
  badName: -10004,
});

/** @type {import('./index.js').FsAtAddon | undefined | null} */
let loaded = null;

/** @returns {import('./index.js').FsAtAddon | undefined} */
export function loadFsAt() {
  if (loaded === null) loaded = load();
  return loaded;
}

function load() {
  // openat(2) relative to a descriptor the walk verified through procfs: Linux only.
  if (process.platform !== 'linux') return undefined;
  try {
    const binding = createRequire(import.meta.url)(ADDON_PATH);
    if (typeof binding?.readFiles !== 'function') return undefined;
    const readFiles = binding.readFiles;
    return Object.freeze({ readFiles, status: FS_AT_STATUS });
  } catch {
    return undefined;
  }
}
