/**
 * The built waiting init of `@toolhost/sandbox-net`, or `undefined` when it was not built (no
 * compiler at install, another OS) or the package is absent. Never throws: without it a sandboxed
 * command still runs, and its exit status is read from bwrap's code (approximate over 128).
 */
export async function loadWaitInit(): Promise<string | undefined> {
  try {
    return (await import('@toolhost/sandbox-net')).findSandboxWaitInit();
  } catch {
    return undefined;
  }
}
