// Runs when `node-gyp rebuild` failed at install (no compiler, no Python, another OS). The
// install still succeeds: search_files then reads files through its JavaScript path.
console.warn(
  '@toolhost/fs-at: native addon not built; search_files will read files through Node (slower, equally checked)',
);
