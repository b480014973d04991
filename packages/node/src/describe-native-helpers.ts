/**
 * Whether an optional native helper can be used here. npm hides install-script output (and
 * npm 11 does not run install scripts until they are approved), so a helper that was never
 * built says so only here — `toolhost doctor` prints it, with the fix.
 */
export type NativeHelperState = 'built' | 'not_built' | 'not_installed' | 'unsupported_platform';

/** The optional native helpers of `@toolhost/node` and what each one's absence costs. */
export interface NativeHelpers {
  /** `@toolhost/pid-namespace`: without it, PID containment uses util-linux `unshare`. */
  readonly pidNamespace: NativeHelperState;
  /**
   * `@toolhost/sandbox-net`: without it, a sandboxed command's network allowance fails closed and
   * its exit status is approximate (bwrap's exit code over 128 is read as a signal).
   */
  readonly sandboxNet: NativeHelperState;
  /** `@toolhost/fs-at`: without it, `search_files` reads and `list_directory` lstats through Node (slower). */
  readonly fsAt: NativeHelperState;
}

/** The command that builds the helpers once a C compiler is present. */
export const NATIVE_HELPERS_FIX =
  'npm install-scripts approve @toolhost/pid-namespace @toolhost/sandbox-net @toolhost/fs-at (npm 11), then npm rebuild @toolhost/pid-namespace @toolhost/sandbox-net @toolhost/fs-at (needs a C compiler and python3)';

type Loader = () => Promise<unknown>;

/** Probes every helper; never throws. The loaders are the seam the tests replace. */
export async function describeNativeHelpers(
  loaders: {
    readonly pidNamespace?: Loader;
    readonly sandboxNet?: Loader;
    readonly fsAt?: Loader;
  } = {},
): Promise<NativeHelpers> {
  const [pidNamespace, sandboxNet, fsAt] = await Promise.all([
    probe(
      loaders.pidNamespace ??
        (async () => (await import('@toolhost/pid-namespace')).loadPidNamespace()),
    ),
    probe(loaders.sandboxNet ?? loadSandboxNetWhole),
    probe(loaders.fsAt ?? (async () => (await import('@toolhost/fs-at')).loadFsAt())),
  ]);
  return { pidNamespace, sandboxNet, fsAt };
}

async function probe(load: Loader): Promise<NativeHelperState> {
  if (process.platform !== 'linux') return 'unsupported_platform';
  let loaded: unknown;
  try {
    loaded = await load();
  } catch {
    // The package itself is absent (an optional dependency npm skipped).
    return 'not_installed';
  }
  return loaded === undefined ? 'not_built' : 'built';
}

// Built means both halves: the addon and net init, and the wait init that makes exit statuses
// exact. An older package without the wait init reads as not built, which is what it costs.
async function loadSandboxNetWhole(): Promise<unknown> {
  const sandboxNet = await import('@toolhost/sandbox-net');
  const waitInit =
    typeof sandboxNet.findSandboxWaitInit === 'function'
      ? sandboxNet.findSandboxWaitInit()
      : undefined;
  return waitInit === undefined ? undefined : sandboxNet.loadSandboxNet();
}
