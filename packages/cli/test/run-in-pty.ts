import { spawn } from 'node:child_process';
import { binArgv, cliEnv } from './run-cli.js';

/** A run of the binary inside a pseudo-terminal (util-linux `script`). */
export interface PtyRun {
  readonly code: number | null;
  /** Everything the terminal showed: stdout and stderr interleaved, plus the echo of input. */
  readonly screen: string;
}

/** One scripted exchange: when the screen shows `waitFor`, type `answer`. */
export interface PtyExchange {
  readonly waitFor: string | RegExp;
  readonly answer: string;
}

/**
 * Runs `toolhost <args>` with stdin, stdout and stderr on a pty, so the CLI sees a real TTY,
 * typing each answer once its prompt appears. `script -e` returns the child's exit code.
 */
export function runInPty(
  args: readonly string[],
  options: {
    readonly cwd: string;
    readonly exchanges?: readonly PtyExchange[];
    readonly timeoutMs?: number;
  },
): Promise<PtyRun> {
  const command = [process.execPath, ...binArgv(args)].map(shellQuote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qefc', command, '/dev/null'], {
      cwd: options.cwd,
      env: cliEnv({ TERM: 'dumb' }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const pending = [...(options.exchanges ?? [])];
    let screen = '';
    let answeredUpTo = 0;
    const onOutput = (chunk: Buffer): void => {
      screen += chunk.toString();
      const next = pending[0];
      if (next === undefined) return;
      const unseen = screen.slice(answeredUpTo);
      const found =
        typeof next.waitFor === 'string'
          ? unseen.includes(next.waitFor)
          : next.waitFor.test(unseen);
      if (found) {
        pending.shift();
        answeredUpTo = screen.length;
        child.stdin.write(next.answer);
      }
    };
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`pty run did not finish; screen: ${screen}`));
    }, options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolve({ code, screen });
    });
  });
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
