// Loads the native addon, or reports `undefined` when it was not built (no compiler at install,
// another OS, another ABI). Never throws: the caller falls back to util-linux `unshare`.
import { createRequire } from 'node:module';

const ADDON_PATH = '../build/Release/pid_namespace.node';

/** @type {import('./index.js').PidNamespaceAddon | undefined | null} */
let loaded = null;

/** @returns {import('./index.js').PidNamespaceAddon | undefined} */
export function loadPidNamespace() {
  if (loaded === null) loaded = load();
  return loaded;
}

function load() {
  // PID namespaces are Linux-only; elsewhere there is nothing to load.
  if (process.platform !== 'linux') return undefined;
  try {
    const binding = createRequire(import.meta.url)(ADDON_PATH);
    if (typeof binding?.enter !== 'function' || typeof binding?.leave !== 'function') {
      return undefined;
    }
    return Object.freeze({
      enterFreshPidNamespace: () => binding.enter(),
      leavePidNamespace: (fd) => binding.leave(fd),
    });
  } catch {
    return undefined;
  }
}
