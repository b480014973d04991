import { constants as osConstants } from 'node:os';

import type { ProcessResult } from '@toolhost/core/host';

import type { CapturedOutput } from './capture-output.js';
import type { ContainmentInfo } from './detect-containment.js';
import type { SandboxExitReport } from './sandbox/read-wait-record.js';

// How a finished child's exit is read back: a wrapper's own failure told from the command's,
// the signal a namespace wrapper hid behind an exit code (or the sandbox's init reported beside
// it), and the result the engine gets.

// bwrap reports its own setup failure as exit 1 with a `bwrap: ` line; a command that prints
// one itself only fails its own call.
export function isSandboxSetupFailure(exitCode: number | null, err: CapturedOutput): boolean {
  return exitCode === 1 && err.text.startsWith('bwrap: ');
}

export function toResult(input: {
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  out: CapturedOutput;
  err: CapturedOutput;
  durationMs: number;
}): ProcessResult {
  const { exitCode, exitSignal, out, err, durationMs } = input;
  const truncated =
    out.truncated === undefined && err.truncated === undefined
      ? undefined
      : {
          ...(out.truncated === undefined ? {} : { stdout: out.truncated }),
          ...(err.truncated === undefined ? {} : { stderr: err.truncated }),
        };
  return {
    exitCode,
    ...(exitSignal === null ? {} : { signal: exitSignal }),
    stdout: out.text,
    stderr: err.text,
    durationMs: Math.round(durationMs),
    ...(truncated === undefined ? {} : { truncated }),
  };
}

const SIGNAL_NAMES = new Map<number, NodeJS.Signals>(
  Object.entries(osConstants.signals).map(([name, number]) => [number, name as NodeJS.Signals]),
);

// util-linux `unshare` re-raises the signal that killed its child, but cannot re-raise SIGKILL:
// it prints this line and exits 1. Report what really happened instead of a fake exit code.
const UNSHARE_SIGKILL_LINE = /(^|\n)unshare: sigprocmask unblock failed: [^\n]*\n?$/;

/**
 * How a sandboxed command ended. bwrap's own code folds `exit 128+N` and a death by signal N into
 * one number; the waiting init's record keeps them apart, so it wins whenever there is one.
 */
export function readSandboxExit(
  report: SandboxExitReport,
  exitCode: number | null,
  exitSignal: NodeJS.Signals | null,
): { exitCode: number | null; exitSignal: NodeJS.Signals | null } {
  // bwrap itself was signalled (the host's timeout or abort kill): that is what ended the call,
  // and the init died with the sandbox before it could write anything.
  if (exitSignal !== null) return { exitCode, exitSignal };
  if (typeof report === 'object') return report;
  // The init ran but left no record (it was killed inside, or the channel broke): bwrap's code is
  // reported as the code it is. Reading a signal into it is the guess the record exists to end;
  // failing the call would drop the output of a command that did run.
  if (report === 'unknown') return { exitCode, exitSignal: null };
  // No init built: bwrap exits 128+N when the command died of signal N, and a command that exits
  // 128+N itself reads the same — the signal is the likelier truth, and `toolhost doctor` says
  // exit statuses are approximate without the init.
  const killedBy =
    exitCode !== null && exitCode > 128 ? SIGNAL_NAMES.get(exitCode - 128) : undefined;
  return killedBy === undefined
    ? { exitCode, exitSignal }
    : { exitCode: null, exitSignal: killedBy };
}

/** The end of a command run under `unshare`, whose SIGKILL it cannot re-raise. */
export function unwrapNamespaceExit(
  containment: ContainmentInfo,
  exitCode: number | null,
  exitSignal: NodeJS.Signals | null,
  err: CapturedOutput,
): { exitCode: number | null; exitSignal: NodeJS.Signals | null; err: CapturedOutput } {
  if (
    containment.mechanism !== 'unshare' ||
    exitCode !== 1 ||
    !UNSHARE_SIGKILL_LINE.test(err.text)
  ) {
    return { exitCode, exitSignal, err };
  }
  return {
    exitCode: null,
    exitSignal: 'SIGKILL',
    err: { ...err, text: err.text.replace(UNSHARE_SIGKILL_LINE, '$1') },
  };
}
