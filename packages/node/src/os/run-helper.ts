import { spawn } from 'node:child_process';
import type { AbortSignalLike } from '@toolhost/core/host';
import { ToolCancelledError, ToolExecutionError } from '@toolhost/core';
import { decodeHead } from '../process/capture-output.js';

/** One OS helper invocation: an absolute file, argv data only, no shell. */
export interface HelperRun {
  readonly toolId: string;
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** stdout beyond this is dropped and the helper stopped. */
  readonly maxBytes: number;
  readonly signal?: AbortSignalLike | undefined;
}

/**
 * Runs a clipboard or notification helper: `shell: false`, stdin from /dev/null, its own
 * process group (killed on timeout, abort, or once the output cap is reached). Resolves with
 * stdout as text, cut on a code-point boundary at `maxBytes`.
 */
export function runHelper(run: HelperRun): Promise<string> {
  const { toolId, signal } = run;
  if (signal?.aborted === true) return Promise.reject(new ToolCancelledError(toolId));
  return new Promise((resolve, reject) => {
    let child;
    try {
      child = spawn(run.file, [...run.args], {
        env: run.env,
        stdio: ['ignore', 'pipe', 'ignore'],
        detached: true,
        shell: false,
        windowsHide: true,
      });
    } catch (error) {
      // Node's own message quotes the offending argument (model text with a NUL): cause only.
      return reject(new ToolExecutionError(toolId, 'spawn_failed', { cause: error }));
    }
    const chunks: Buffer[] = [];
    let received = 0;
    let ending: 'timeout' | 'abort' | 'capped' | undefined;
    let spawnError: Error | undefined;
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const stop = (why: 'timeout' | 'abort' | 'capped'): void => {
      ending ??= why;
      killGroup();
    };
    const onAbort = (): void => stop('abort');
    const timer = setTimeout(() => stop('timeout'), run.timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      if (received >= run.maxBytes) return;
      chunks.push(chunk);
      received += chunk.length;
      // The cap is the point: stop the helper instead of reading a huge clipboard to the end.
      if (received >= run.maxBytes) stop('capped');
    });
    child.once('error', (error) => {
      spawnError = error;
    });
    child.once('exit', killGroup);
    child.once('close', (code) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (ending === 'abort') return reject(new ToolCancelledError(toolId));
      if (ending === 'timeout') return reject(new ToolExecutionError(toolId, 'timed_out'));
      if (spawnError !== undefined) {
        return reject(new ToolExecutionError(toolId, 'not_found', { cause: spawnError }));
      }
      if (ending !== 'capped' && code !== 0) {
        // Never fed back: a notification may have been shown, and both tools are governed.
        return reject(new ToolExecutionError(toolId, 'helper_failed'));
      }
      resolve(decodeHead(Buffer.concat(chunks).subarray(0, run.maxBytes)));
    });
  });
}
