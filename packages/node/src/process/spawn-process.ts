import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { constants as osConstants } from 'node:os';
import type { Readable } from 'node:stream';
import type { AbortSignalLike, ProcessResult } from '@toolhost/core';
import { ToolCancelledError, ToolExecutionError, ToolPolicyError } from '@toolhost/core';
import { captureOutput, type CapturedOutput, type OpenProcessSpill } from './capture-output.js';
import type { ProcessOutputObserver } from './process-output-observer.js';
import type { ContainmentInfo } from './detect-containment.js';
import {
  killNamespaceInitIfUnhandled,
  killProcessTree,
  RUN_TOKEN_ENV,
} from './kill-process-tree.js';
import type { PreparedSandbox } from './sandbox/create-sandbox.js';
import { PidNamespaceError, spawnInFreshPidNamespace } from './spawn-in-fresh-pid-namespace.js';

/**
 * Limits the OS enforces on the command. CPU, address space, open files and file size go through
 * `prlimit`; memory and pids need a delegated cgroup v2 and are reported `unenforced` without one.
 */
export interface ProcessBudgets {
  readonly cpuSeconds?: number;
  readonly addressSpaceBytes?: number;
  /** RLIMIT_NOFILE: descriptors open at once. */
  readonly openFiles?: number;
  /** RLIMIT_FSIZE: the largest file the command may write (SIGXFSZ / EFBIG past it). */
  readonly fileSizeBytes?: number;
  /** cgroup v2 `memory.max` (resident memory of the whole tree). */
  readonly memoryBytes?: number;
  /** cgroup v2 `pids.max` (processes and threads of the whole tree). */
  readonly pids?: number;
}

/** Everything one spawn needs, already resolved and checked by the arm. */
export interface SpawnPlan {
  readonly toolId: string;
  /** Absolute path of the executable. */
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Absolute, jailed working directory. */
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly killGraceMs: number;
  readonly maxBufferBytes: number;
  readonly containment: ContainmentInfo;
  readonly budgets?: ProcessBudgets | undefined;
  readonly openSpill?: OpenProcessSpill | undefined;
  readonly onOutput?: ProcessOutputObserver | undefined;
  /** The command already wrapped in bubblewrap: argv, env and the extra descriptors. */
  readonly sandbox?: PreparedSandbox | undefined;
}

/**
 * Runs one resolved command: `shell: false`, stdin from /dev/null, its own process group, output
 * streamed into bounded buffers. Timeout or abort: SIGTERM to the tree, `killGraceMs`, then
 * SIGKILL. Settles only on `close`, and after any exit kills what is left of the tree.
 * Timeout → a result with `timedOut: true` (the tool maps it to `timed_out`); abort →
 * `ToolCancelledError`.
 */
export function spawnProcess(plan: SpawnPlan, signal?: AbortSignalLike): Promise<ProcessResult> {
  // Abort after resolution but before the spawn starts nothing.
  if (signal?.aborted === true) {
    plan.sandbox?.release();
    return Promise.reject(new ToolCancelledError(plan.toolId));
  }
  const { file, argv, env, runToken } = wrapCommand(plan);
  const started = performance.now();
  const { sandbox } = plan;
  const start = (): ChildProcessByStdio<null, Readable, Readable> =>
    spawn(file, argv, {
      // Inside the sandbox bwrap changes directory (`--chdir`); outside it the host does.
      cwd: sandbox === undefined ? plan.cwd : '/',
      env,
      stdio: ['ignore', 'pipe', 'pipe', ...(sandbox?.extraStdio ?? [])],
      detached: true,
      shell: false,
      windowsHide: true,
    }) as ChildProcessByStdio<null, Readable, Readable>;
  const { containment } = plan;
  let child: ChildProcessByStdio<null, Readable, Readable>;
  try {
    child =
      containment.mechanism === 'in-process'
        ? spawnInFreshPidNamespace(containment.inProcess, start)
        : start();
  } catch (error) {
    sandbox?.release();
    // Fail closed: a command is never started outside the namespace the host promised.
    if (!(error instanceof PidNamespaceError)) throw error;
    return Promise.reject(
      new ToolExecutionError(plan.toolId, 'containment_failed', { cause: error }),
    );
  }
  sandbox?.started(child);
  const tree = { pgid: child.pid, runToken };
  let ending: 'timeout' | 'abort' | undefined;
  let graceTimer: NodeJS.Timeout | undefined;
  let forceCloseTimer: NodeJS.Timeout | undefined;
  let spawnError: Error | undefined;

  const terminate = (why: 'timeout' | 'abort'): void => {
    if (ending !== undefined) return;
    ending = why;
    void killProcessTree(tree, 'SIGTERM');
    // Once reaped, the pid may be reused: only an init still running is looked at.
    const running = child.exitCode === null && child.signalCode === null;
    const wrapped = containment.mechanism === 'in-process' || containment.mechanism === 'unshare';
    if (wrapped && running && child.pid !== undefined) {
      void killNamespaceInitIfUnhandled(
        containment.mechanism === 'in-process' ? { initPid: child.pid } : { wrapperPid: child.pid },
      );
    }
    graceTimer = setTimeout(() => void killProcessTree(tree, 'SIGKILL'), plan.killGraceMs);
  };
  const onAbort = (): void => terminate('abort');
  const timeoutTimer = setTimeout(() => terminate('timeout'), plan.timeoutMs);
  signal?.addEventListener('abort', onAbort, { once: true });

  const stdout = captureOutput(child.stdout, {
    limitBytes: plan.maxBufferBytes,
    stream: 'stdout',
    openSpill: plan.openSpill,
    onChunk: plan.onOutput && ((chunk) => plan.onOutput?.({ stream: 'stdout', chunk })),
  }).catch(emptyCapture);
  const stderr = captureOutput(child.stderr, {
    limitBytes: plan.maxBufferBytes,
    stream: 'stderr',
    openSpill: plan.openSpill,
    onChunk: plan.onOutput && ((chunk) => plan.onOutput?.({ stream: 'stderr', chunk })),
  }).catch(emptyCapture);

  child.once('error', (error) => {
    spawnError = error;
  });
  child.once('exit', () => {
    // No orphans: whatever the command left running dies with it. A descendant that escaped
    // every containment but still holds a pipe must not hold the call: close the pipes ourselves.
    void killProcessTree(tree, 'SIGKILL');
    forceCloseTimer = setTimeout(() => {
      child.stdout.destroy();
      child.stderr.destroy();
    }, plan.killGraceMs);
  });

  return new Promise<ProcessResult>((resolve, reject) => {
    child.once('close', (exitCode, exitSignal) => {
      clearTimeout(timeoutTimer);
      clearTimeout(graceTimer);
      clearTimeout(forceCloseTimer);
      signal?.removeEventListener('abort', onAbort);
      sandbox?.release();
      const durationMs = performance.now() - started;
      void Promise.all([stdout, stderr]).then(async ([out, err]) => {
        if (runToken !== undefined) await killProcessTree(tree, 'SIGKILL');
        if (ending === 'abort') return reject(new ToolCancelledError(plan.toolId));
        if (spawnError !== undefined) return reject(spawnFailure(plan.toolId, spawnError));
        if (sandbox !== undefined && isSandboxSetupFailure(exitCode, err)) {
          // bwrap refused to build the view (a mount failed): the command never ran.
          return reject(new ToolExecutionError(plan.toolId, 'containment_failed'));
        }
        const result = toResult({
          ...unwrapNamespaceExit(plan.containment, exitCode, exitSignal, err),
          out,
          durationMs,
        });
        // The calling tool turns this into `ToolExecutionError(<its id>, 'timed_out')`; the
        // partial output stays available to a host that wants to log it.
        resolve(ending === 'timeout' ? { ...result, timedOut: true } : result);
      });
    });
  });
}

function wrapCommand(plan: SpawnPlan): {
  file: string;
  argv: string[];
  env: Record<string, string>;
  runToken: string | undefined;
} {
  const { containment, sandbox } = plan;
  // The sandbox already holds the limits and the command (limits apply inside, after bwrap).
  if (sandbox !== undefined) {
    return {
      file: sandbox.file,
      argv: [...sandbox.args],
      env: { ...sandbox.env },
      runToken: undefined,
    };
  }
  let command = [plan.file, ...plan.args];
  const limits = prlimitCommand(containment.prlimit, plan.budgets);
  command = [...limits, ...command];
  // In `in-process` mechanism there is no wrapper: the command itself is PID 1.
  if (containment.mechanism === 'unshare') {
    command = [containment.unshare.file, ...containment.unshare.args, '--', ...command];
  }
  const env = { ...plan.env };
  let runToken: string | undefined;
  if (containment.mode === 'proc-walk') {
    runToken = randomUUID();
    env[RUN_TOKEN_ENV] = runToken;
  }
  const [file = plan.file, ...argv] = command;
  return { file, argv, env, runToken };
}

/**
 * `prlimit` and its options for `budgets`, or nothing when none is configured or `prlimit` is
 * unavailable (then `describeContainment` says `unenforced`).
 */
export function prlimitCommand(
  prlimit: string | undefined,
  budgets: ProcessBudgets | undefined,
): string[] {
  const limits: string[] = [];
  // Soft limit first (SIGXCPU / ENOMEM the program may report), the hard one a second later.
  if (budgets?.cpuSeconds !== undefined) {
    limits.push(`--cpu=${budgets.cpuSeconds}:${budgets.cpuSeconds + 1}`);
  }
  if (budgets?.addressSpaceBytes !== undefined) limits.push(`--as=${budgets.addressSpaceBytes}`);
  if (budgets?.openFiles !== undefined) limits.push(`--nofile=${budgets.openFiles}`);
  if (budgets?.fileSizeBytes !== undefined) limits.push(`--fsize=${budgets.fileSizeBytes}`);
  if (limits.length === 0 || prlimit === undefined) return [];
  return [prlimit, ...limits, '--'];
}

// bwrap reports its own setup failure as exit 1 with a `bwrap: ` line; a command that prints
// one itself only fails its own call.
function isSandboxSetupFailure(exitCode: number | null, err: CapturedOutput): boolean {
  return exitCode === 1 && err.text.startsWith('bwrap: ');
}

function toResult(input: {
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

function unwrapNamespaceExit(
  containment: ContainmentInfo,
  exitCode: number | null,
  exitSignal: NodeJS.Signals | null,
  err: CapturedOutput,
): { exitCode: number | null; exitSignal: NodeJS.Signals | null; err: CapturedOutput } {
  if (containment.mechanism === 'bwrap') {
    // bwrap exits 128+N when the command died of signal N (a command that exits 128+N itself
    // reads the same: the signal is the likelier truth).
    const killedBy =
      exitCode !== null && exitCode > 128 ? SIGNAL_NAMES.get(exitCode - 128) : undefined;
    return killedBy === undefined
      ? { exitCode, exitSignal, err }
      : { exitCode: null, exitSignal: killedBy, err };
  }
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

function emptyCapture(): CapturedOutput {
  return { text: '' };
}

function spawnFailure(toolId: string, error: Error): Error {
  const code = (error as NodeJS.ErrnoException).code;
  // The file vanished or lost its execute bit between resolution and spawn.
  if (code === 'ENOENT' || code === 'EACCES')
    return new ToolPolicyError(toolId, 'command_not_found', { cause: error });
  return new ToolExecutionError(toolId, 'spawn_failed', { cause: error });
}
