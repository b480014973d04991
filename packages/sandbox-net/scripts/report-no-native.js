// Runs when `node-gyp rebuild` failed at install (no compiler, no Python, another OS). The
// install still succeeds: @toolhost/node then runs every sandboxed command with no network.
console.warn(
  '@toolhost/sandbox-net: native addon and init program not built; sandboxed commands cannot be allowed any network domains (their proxy needs the listener handoff)',
);
