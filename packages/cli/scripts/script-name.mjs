// The name the bundled script runs under, when its code cache is made (train-code-cache.mjs) and
// at start (bundle-entry.mjs): V8 keeps it in the cache, so it is a file name, never a path, and
// the shipped cache holds nothing of the machine that built it.
export const SCRIPT_NAME = 'toolhost.cjs';
