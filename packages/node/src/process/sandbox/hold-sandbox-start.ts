import type { Readable, Writable } from 'node:stream';
import { readBlockedSyscall } from './read-blocked-syscall.js';
import type { MountExpectation } from './sandbox-mount-plan.js';
import { verifySandboxMounts } from './verify-sandbox-mounts.js';

/** The two channels bwrap is given: it reports its pid on one and waits on the other. */
export interface SandboxStartGate {
  readonly info: Readable;
  readonly block: Writable;
  /** The child's descriptor number of `block`: what its blocked `read` shows. */
  readonly blockFd: number;
}

/** How the hold ended: the command was let go, or the sandbox was killed before it ran. */
export type SandboxStartOutcome = 'released' | { readonly refused: string };

// `read` in /proc/<pid>/syscall: the one syscall a blocked bwrap sits in, per architecture.
const READ_SYSCALL: Readonly<Record<string, number>> = { x64: 0, arm64: 63 };
const POLL_MS = 1;

/**
 * Holds a sandbox between the mounts and the command: bwrap (`--info-fd`, `--block-fd`) builds
 * the whole view, pivots into it and waits before it runs anything; the host reads its pid,
 * waits until it really sits in that `read`, checks every planned mount from outside
 * (`verifySandboxMounts`) and only then lets it go. A check that fails, or cannot be made within
 * `timeoutMs`, kills the sandbox before the command ran: unknown means deny.
 */
export async function holdSandboxStart(
  gate: SandboxStartGate,
  expected: readonly MountExpectation[],
  kill: (why: string) => void,
  timeoutMs: number,
): Promise<SandboxStartOutcome> {
  const pid = await readChildPid(gate.info, timeoutMs);
  const refuse = (why: string): SandboxStartOutcome => {
    // The held sandbox first: bwrap arms --die-with-parent only after the wait, so killing the
    // outer bwrap alone would leave it waiting — and it reads the channel's end as a go.
    if (pid !== undefined) killQuietly(pid);
    kill(why);
    return { refused: why };
  };
  const deadline = Date.now() + timeoutMs;
  if (pid === undefined) return refuse('no_child_pid');
  const readCall = READ_SYSCALL[process.arch];
  if (readCall === undefined) return refuse('unsupported_architecture');
  for (;;) {
    const state = readBlockedSyscall(pid);
    // Gone: bwrap failed to build the view and exits on its own (its code says so).
    if (state.kind === 'gone') return { refused: 'exited' };
    if (state.kind === 'unreadable') return refuse('unreadable');
    if (state.kind === 'blocked' && state.call === readCall && state.firstArg === gate.blockFd) {
      break;
    }
    if (Date.now() > deadline) return refuse('never_blocked');
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  let failure: string | undefined;
  try {
    failure = verifySandboxMounts(pid, expected);
  } catch {
    failure = 'unreadable';
  }
  if (failure !== undefined) return refuse(failure);
  gate.block.end('1');
  return 'released';
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

// bwrap writes one JSON object, `{ "child-pid": N, ... }`, then closes the channel.
function readChildPid(info: Readable, timeoutMs: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    let text = '';
    const done = (pid: number | undefined): void => {
      clearTimeout(timer);
      info.removeAllListeners('data');
      // Drained to its end: the child's `close` waits for every pipe.
      info.resume();
      resolve(pid);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    info.setEncoding('utf8');
    info.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > 4096) return done(undefined);
      const pid = parseChildPid(text);
      if (pid !== undefined) done(pid);
    });
    info.once('end', () => done(parseChildPid(text)));
    info.once('error', () => done(undefined));
  });
}

function parseChildPid(text: string): number | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const pid = (parsed as Record<string, unknown>)['child-pid'];
    return typeof pid === 'number' && Number.isSafeInteger(pid) && pid > 1 ? pid : undefined;
  } catch {
    return undefined;
  }
}
