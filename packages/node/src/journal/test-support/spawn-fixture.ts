import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

// The repository root: where `--import tsx` resolves, so the fixtures run from their sources.
const REPOSITORY = fileURLToPath(new URL('../../../../../', import.meta.url));

/** A fixture script running under tsx, with its stdout as lines. */
export interface FixtureProcess {
  readonly child: ChildProcess;
  /** Resolves with the first stdout line `matches` accepts (rejects if the process ends first). */
  readonly waitForLine: (matches: (line: string) => boolean) => Promise<string>;
  /** Every stdout line and the exit, once the process has ended. */
  readonly exited: Promise<{
    readonly lines: readonly string[];
    readonly code: number | null;
    readonly signal: NodeJS.Signals | null;
    readonly stderr: string;
  }>;
}

/** Starts `test-support/<script>` in its own Node process (the same binary as the test's). */
export function spawnFixture(
  script: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): FixtureProcess {
  const child = spawn(
    process.execPath,
    [
      '--conditions=source',
      '--import',
      'tsx',
      fileURLToPath(new URL(script, import.meta.url)),
      ...args,
    ],
    { cwd: REPOSITORY, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const lines: string[] = [];
  const waiters: { matches: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const waiter of waiters.splice(0)) {
      if (waiter.matches(line)) waiter.resolve(line);
      else waiters.push(waiter);
    }
  });
  const exited = new Promise<Awaited<FixtureProcess['exited']>>((resolve) => {
    child.on('close', (code, signal) => resolve({ lines, code, signal, stderr }));
  });
  const waitForLine = (matches: (line: string) => boolean): Promise<string> => {
    const seen = lines.find(matches);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      waiters.push({ matches, resolve });
      void exited.then(() => reject(new Error(`fixture ended first: ${stderr.slice(-2000)}`)));
    });
  };
  return { child, waitForLine, exited };
}
