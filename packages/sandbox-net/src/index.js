// Loads the native addon and finds the init program, or reports `undefined` when either was not
// built (no compiler at install, another OS, another ABI). Never throws: the caller then runs
// sandboxed commands with no network allowance at all.
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { getSystemErrorName } from 'node:util';

const ADDON_PATH = '../build/Release/sandbox_net.node';
const INIT_URL = new URL('../build/Release/toolhost-sandbox-net-init', import.meta.url);
const WAIT_INIT_URL = new URL('../build/Release/toolhost-sandbox-wait-init', import.meta.url);

/** @type {import('./index.js').SandboxNetAddon | undefined | null} */
let loaded = null;

/** @returns {import('./index.js').SandboxNetAddon | undefined} */
export function loadSandboxNet() {
  if (loaded === null) loaded = load();
  return loaded;
}

/** @type {string | undefined | null} */
let waitInit = null;

/** @returns {string | undefined} */
export function findSandboxWaitInit() {
  // The wait init needs no addon: a plain executable, found (and cached) on its own.
  if (waitInit === null)
    waitInit = process.platform === 'linux' ? findInit(WAIT_INIT_URL) : undefined;
  return waitInit;
}

function load() {
  // Network namespaces and SCM_RIGHTS on these terms are Linux's; elsewhere nothing to load.
  if (process.platform !== 'linux') return undefined;
  try {
    const binding = createRequire(import.meta.url)(ADDON_PATH);
    if (
      typeof binding?.socketPair !== 'function' ||
      typeof binding?.receiveFd !== 'function' ||
      typeof binding?.closeFd !== 'function'
    ) {
      return undefined;
    }
    const initPath = findInit(INIT_URL);
    if (initPath === undefined) return undefined;
    return Object.freeze({
      initPath,
      socketPair: () => named(() => binding.socketPair()),
      receiveFd: async (fd, timeoutMs) => {
        try {
          return await binding.receiveFd(fd, timeoutMs);
        } catch (error) {
          throw withCode(error);
        }
      },
      closeFd: (fd) => named(() => binding.closeFd(fd)),
    });
  } catch {
    return undefined;
  }
}

// The real path: bwrap binds what it names, and a half-installed tree (an addon without its
// init) must read as not built rather than fail on the first sandboxed command.
function findInit(url) {
  try {
    const initPath = realpathSync(fileURLToPath(url));
    if (!statSync(initPath).isFile()) return undefined;
    accessSync(initPath, constants.X_OK);
    return initPath;
  } catch {
    return undefined;
  }
}

function named(call) {
  try {
    return call();
  } catch (error) {
    throw withCode(error);
  }
}

// The addon reports a negative errno; the name is Node's own, so `code` reads as in node:fs.
function withCode(error) {
  if (error instanceof Error && typeof error.errno === 'number' && !('code' in error)) {
    error.code = getSystemErrorName(error.errno);
  }
  return error;
}
