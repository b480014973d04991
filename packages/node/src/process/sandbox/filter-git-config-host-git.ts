import { spawn, type ChildProcess } from 'node:child_process';
import { isExecutableFile } from '../resolve-executable.js';

/** How one bounded run of the host's git ended; abort is a rejection, never a result. */
export type HostGitRun =
  | { readonly ok: true; readonly exitCode: number; readonly stdout: Buffer }
  | { readonly ok: false; readonly reason: 'spawn_failed' | 'timed_out' | 'output_too_large' };

/** One run of the host's git: argv, never a shell; the whole environment, never inherited. */
export interface HostGitRequest {
  readonly gitFile: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  /** Written to git's stdin; without it stdin is /dev/null. */
  readonly input?: Buffer | undefined;
  readonly signal?: AbortSignal | undefined;
}

// Fixed system directories, never PATH: the host's PATH may name a directory the agent wrote.
const GIT_CANDIDATES = ['/usr/bin/git', '/bin/git', '/usr/local/bin/git'] as const;

/** The host's git, found once per process in fixed directories; undefined when there is none. */
export function resolveHostGit(): Promise<string | undefined> {
  resolved ??= findHostGit();
  return resolved;
}

let resolved: Promise<string | undefined> | undefined;

/**
 * Runs the host's git with cwd `/` (no repository is discovered from an agent's directory),
 * stdin from `input` or /dev/null, collecting at most `maxOutputBytes` of stdout. A hang ends at
 * `timeoutMs`; too much output ends the run early. Rejects only with the abort reason.
 */
export function runHostGit(request: HostGitRequest): Promise<HostGitRun> {
  const { signal } = request;
  if (signal?.aborted === true) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawn(request.gitFile, [...request.args], {
        cwd: '/',
        env: { ...request.env },
        stdio: [request.input === undefined ? 'ignore' : 'pipe', 'pipe', 'ignore'],
        shell: false,
        windowsHide: true,
      });
    } catch {
      // Thrown, not emitted, for an argument Node refuses (a NUL in the path): no git ran.
      return resolve({ ok: false, reason: 'spawn_failed' });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let ending: 'timed_out' | 'output_too_large' | 'aborted' | undefined;
    let spawnFailed = false;
    const end = (why: NonNullable<typeof ending>): void => {
      ending ??= why;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => end('timed_out'), request.timeoutMs);
    const onAbort = (): void => end('aborted');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout?.on('data', (chunk: Buffer) => {
      if (ending !== undefined) return;
      size += chunk.length;
      if (size > request.maxOutputBytes) return end('output_too_large');
      chunks.push(chunk);
    });
    child.once('error', () => {
      spawnFailed = true;
    });
    // Git may exit (a syntax error) before reading all of it: EPIPE is its answer, not ours.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(request.input);
    child.once('close', (exitCode) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (ending === 'aborted') return reject(abortReason(signal));
      if (ending !== undefined) return resolve({ ok: false, reason: ending });
      if (spawnFailed || exitCode === null) return resolve({ ok: false, reason: 'spawn_failed' });
      resolve({ ok: true, exitCode, stdout: Buffer.concat(chunks) });
    });
  });
}

async function findHostGit(): Promise<string | undefined> {
  for (const candidate of GIT_CANDIDATES) {
    if (await isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

function abortReason(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new Error('aborted');
}
