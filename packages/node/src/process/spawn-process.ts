import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { AbortSignalLike, ProcessResult } from '@toolhost/core/host';
import { ToolCancelledError, ToolExecutionError, ToolPolicyError } from '@toolhost/core';
import { refusedBeforeEffect } from '@toolhost/core/host';
import { captureOutput, type CapturedOutput, type OpenProcessSpill } from './capture-output.js';
import type { ProcessOutputObserver } from './process-output-observer.js';
import type { ContainmentInfo } from './detect-containment.js';
import { killNamespaceInitIfUnhandled, killProcessTree } from './kill-process-tree.js';
import {
  isSandboxSetupFailure,
  readSandboxExit,
  toResult,
  unwrapNamespaceExit,
} from './process-exit.js';
import { wrapCommand } from './wrap-command.js';
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
    return Promise.reject(refusedBeforeEffect(new ToolCancelledError(plan.toolId)));
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

  // `on`, not `once`: a ChildProcess emits 'error' again when a later kill fails, and an 'error'
  // with no listener throws in the host. The first one starts the tree's cleanup, once; the
  // call still settles on `close`, which follows an 'error' whether or not the child started.
  child.on('error', (error) => {
    if (spawnError !== undefined) return;
    spawnError = error;
    void killProcessTree(tree, 'SIGKILL');
  });
  child.once('exit', () => {
    // No orphans: whatever the command left running dies with it. A descendant that escaped
    // every containment but still holds a pipe must not hold the call: close the pipes ourselves.
    void killProcessTree(tree, 'SIGKILL');
    forceCloseTimer = setTimeout(() => {
      // Every pipe, the sandbox's status channel too: `close` waits for each of them.
      for (const stream of child.stdio.slice(1)) stream?.destroy();
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
        // The host killed the sandbox before the command ran: its view was not the one planned.
        if (sandbox?.startRefused() !== undefined) {
          return reject(new ToolExecutionError(plan.toolId, 'containment_failed'));
        }
        const report = sandbox?.exitReport();
        // A record means the command ran: its own `bwrap: ` line and exit 1 are its own.
        if (report !== undefined && typeof report !== 'object') {
          if (isSandboxSetupFailure(exitCode, err)) {
            // bwrap refused to build the view (a mount failed): the command never ran.
            return reject(new ToolExecutionError(plan.toolId, 'containment_failed'));
          }
        }
        const ended =
          report === undefined
            ? unwrapNamespaceExit(plan.containment, exitCode, exitSignal, err)
            : { ...readSandboxExit(report, exitCode, exitSignal), err };
        const result = toResult({ ...ended, out, durationMs });
        // The calling tool turns this into `ToolExecutionError(<its id>, 'timed_out')`; the
        // partial output stays available to a host that wants to log it.
        resolve(ending === 'timeout' ? { ...result, timedOut: true } : result);
      });
    });
  });
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
