/**
 * The host's half of the sandbox network handoff, and the init program that does the sandbox's
 * half. Linux only. Failures are Errors with a `code`: an errno name, or ERR_INVALID_ARG_VALUE.
 */
export interface SandboxNetAddon {
  /** Absolute path of the built init executable (to bind read-only into the sandbox). */
  readonly initPath: string;
  /**
   * A connected AF_UNIX stream pair, both ends close-on-exec: pass one in `spawn`'s `stdio` (the
   * child's copy is the only inheritable one), close it after the spawn, receive on the other.
   */
  socketPair(): [number, number];
  /**
   * Waits up to `timeoutMs` for exactly one descriptor sent with SCM_RIGHTS on `fd`, and resolves
   * to it, close-on-exec. Rejects with `code` 'ETIMEDOUT' (nothing in time), 'ECONNRESET' (the
   * peer closed first: the init failed), 'EPROTO' (no descriptor, or more than one: all closed),
   * or the errno name of a failed poll/recvmsg. `fd` stays open; never close it while pending.
   */
  receiveFd(fd: number, timeoutMs: number): Promise<number>;
  /** Closes a descriptor that was never handed to Node; throws EBADF on a double close. */
  closeFd(fd: number): void;
}

/** The addon, or `undefined` when it or the init is not built or not loadable here. Never throws. */
export function loadSandboxNet(): SandboxNetAddon | undefined;

/**
 * Absolute path of the built wait init (`toolhost-sandbox-wait-init <status-fd> -- <file>
 * [args...]`: forks the command, forwards TERM/INT/HUP/QUIT/USR1/USR2, reaps it and writes one
 * record, `exit <code>\n` or `signal <number>\n`, to the status descriptor), or `undefined` when
 * it is not built or not on Linux. Never throws.
 */
export function findSandboxWaitInit(): string | undefined;
