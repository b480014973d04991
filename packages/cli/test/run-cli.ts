import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root, from this file's place in packages/cli/test. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The binary as the tests run it: the TypeScript sources through tsx, no build needed. */
export const BIN = fileURLToPath(new URL('../src/bin.ts', import.meta.url));

const TSX_LOADER = `${REPO_ROOT}node_modules/tsx/dist/loader.mjs`;

/** `node` argv that runs the real `toolhost` binary from source. */
export function binArgv(args: readonly string[]): string[] {
  return ['--conditions=source', '--import', TSX_LOADER, BIN, ...args];
}

/** A finished run of the binary. */
export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of `runCli`. */
export interface RunCliOptions {
  readonly cwd: string;
  readonly input?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs?: number;
  /** Keep stdin open this long after writing `input` (a server reading requests). */
  readonly keepStdinOpenMs?: number;
  /**
   * Close stdin as soon as stdout holds the JSON-RPC reply with this id (`keepStdinOpenMs` is
   * then only the upper bound): a loaded machine can take seconds to start the server.
   */
  readonly closeStdinAfterReply?: number;
  /** Called once the child is running, e.g. to send it a signal. */
  readonly onSpawn?: (child: ChildProcess) => void;
}

/** A clean environment: no CI flag (tests set it explicitly), no inherited NODE_OPTIONS. */
export function cliEnv(
  extra: Readonly<Record<string, string | undefined>> = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env['NODE_OPTIONS'];
  if (!('CI' in extra)) delete env['CI'];
  for (const [key, value] of Object.entries(extra)) if (value === undefined) delete env[key];
  return env;
}

/** Runs `toolhost <args>` as a subprocess and collects its output. */
export function runCli(args: readonly string[], options: RunCliOptions): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, binArgv(args), {
      cwd: options.cwd,
      env: cliEnv(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const reply =
      options.closeStdinAfterReply === undefined
        ? undefined
        : new RegExp(`"id":${options.closeStdinAfterReply}[,}]`);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (reply?.test(stdout) === true) child.stdin.end();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`toolhost ${args.join(' ')} did not finish; stderr: ${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    if (options.keepStdinOpenMs === undefined) {
      child.stdin.end(options.input ?? '');
    } else {
      child.stdin.write(options.input ?? '');
      setTimeout(() => child.stdin.end(), options.keepStdinOpenMs).unref();
    }
    options.onSpawn?.(child);
  });
}

/** `toolhost call <args>` in a workspace, with its own state dir; `input` feeds stdin. */
export function callCli(
  ws: { readonly root: string; readonly stateFlags: readonly string[] },
  args: readonly string[],
  input?: string,
): Promise<CliRun> {
  return runCli(['call', ...args, ...ws.stateFlags], {
    cwd: ws.root,
    ...(input === undefined ? {} : { input }),
  });
}

/** `toolhost config approve` in a workspace, as a user does after writing its config. */
export async function approveConfig(ws: {
  readonly root: string;
  readonly stateFlags: readonly string[];
}): Promise<void> {
  const run = await runCli(['config', 'approve', ...ws.stateFlags], { cwd: ws.root });
  if (run.code !== 0) throw new Error(`toolhost config approve failed: ${run.stderr}`);
}
