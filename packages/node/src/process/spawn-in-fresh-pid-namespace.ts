import type { ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import type { PidNamespaceAddon } from '@toolhost/pid-namespace';

/** The addon could not move the spawning thread into a fresh PID namespace, or back out. */
export class PidNamespaceError extends Error {
  override readonly name = 'PidNamespaceError';
  /** The errno name (`EPERM`, `ENOSPC`, …); never a path or an argument. */
  readonly errno: string;

  constructor(
    readonly step: 'enter' | 'leave',
    result: number,
    options: { readonly cause?: unknown } = {},
  ) {
    const errno = errnoName(result);
    super(`could not ${step} a fresh PID namespace: ${errno}`, options);
    this.errno = errno;
  }
}

/**
 * Calls `start` (a synchronous `child_process.spawn`) with this thread's `pid_for_children` in a
 * fresh PID namespace, so the child libuv forks is PID 1 there; the thread moves back before this
 * returns or throws. Only this thread is affected: libuv's pool threads never fork into it.
 * Throws `PidNamespaceError` when entering fails (nothing started) or when leaving fails (the
 * child is killed first: the call fails, so nothing of it may keep running unsupervised).
 */
export function spawnInFreshPidNamespace<Child extends ChildProcess>(
  addon: PidNamespaceAddon,
  start: () => Child,
): Child {
  const fd = addon.enterFreshPidNamespace();
  if (fd < 0) throw new PidNamespaceError('enter', fd);
  let child: Child;
  try {
    child = start();
  } catch (error) {
    const left = addon.leavePidNamespace(fd);
    if (left !== 0) throw new PidNamespaceError('leave', left, { cause: error });
    throw error;
  }
  const left = addon.leavePidNamespace(fd);
  if (left !== 0) {
    // The addon rehearses the way back before entering, so this is all but unreachable; were
    // it reached, the next enter retries that rehearsal and refuses if it still fails.
    if (child.pid !== undefined) signalQuietly(child.pid);
    child.stdout?.destroy();
    child.stderr?.destroy();
    throw new PidNamespaceError('leave', left);
  }
  return child;
}

function signalQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function errnoName(result: number): string {
  const found = Object.entries(constants.errno).find(([, value]) => value === -result);
  return found?.[0] ?? `errno ${-result}`;
}
