/**
 * Moves the calling thread's `pid_for_children` into a fresh PID namespace for one synchronous
 * spawn, and back. Linux only; needs CAP_SYS_ADMIN (root) in the thread's user namespace.
 */
export interface PidNamespaceAddon {
  /**
   * Makes the next child this thread forks PID 1 of a new PID namespace. Returns a descriptor
   * of the thread's own namespace (>= 0) to hand to `leavePidNamespace`, or `-errno` (EPERM
   * without CAP_SYS_ADMIN), in which case the thread is unchanged.
   */
  enterFreshPidNamespace(): number;
  /**
   * Points the thread's `pid_for_children` back at its own namespace and closes `fd`. Returns 0,
   * or `-errno` when the thread could not be moved back (its later forks would land in, or fail
   * with ENOMEM after the death of, the fresh namespace).
   */
  leavePidNamespace(fd: number): number;
}

/** The addon, or `undefined` when it is not built or not loadable here. Never throws. */
export function loadPidNamespace(): PidNamespaceAddon | undefined;
