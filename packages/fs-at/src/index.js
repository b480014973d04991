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

/** Where each field of a name's run of `FS_AT_STAT.slots` doubles sits in `statEntries`' output. */
export const FS_AT_STAT = Object.freeze({
  slots: 8,
  status: 0,
  mode: 1,
  size: 2,
  mtimeSec: 3,
  mtimeNsec: 4,
  ino: 5,
  dev: 6,
  nlink: 7,
});

/** The entry types `readEntries` gives, as `d_type` reports them (an unknown one by lstat). */
export const FS_AT_ENTRY = Object.freeze({ other: 0, file: 1, directory: 2, symlink: 3 });

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
    const { readFiles, statEntries, statJoined, readEntries, listEntries } = binding ?? {};
    const calls = [readFiles, statEntries, statJoined, readEntries, listEntries];
    if (calls.some((call) => typeof call !== 'function')) return undefined;
    return Object.freeze({
      readFiles,
      statEntries,
      statJoined,
      readEntries,
      listEntries,
      status: FS_AT_STATUS,
      stat: FS_AT_STAT,
      entry: FS_AT_ENTRY,
    });
  } catch {
    return undefined;
  }
}
