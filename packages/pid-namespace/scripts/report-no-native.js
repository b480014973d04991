// Runs when `node-gyp rebuild` failed at install (no compiler, no Python, another OS). The
// install still succeeds: @toolhost/node then contains commands with util-linux `unshare`.
console.warn(
  '@toolhost/pid-namespace: native addon not built; @toolhost/node will use util-linux unshare for PID-namespace containment (one extra exec per command)',
);
