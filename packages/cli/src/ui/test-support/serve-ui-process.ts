import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../../mcp/test-support/serve-client.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin.ts');

/** A real `toolhost serve --http --ui` process and the two URLs it printed. */
export interface ServeUiProcess {
  readonly mcpUrl: string;
  readonly uiUrl: string;
  readonly pid: number;
  /** SIGTERM to its PID (SIGKILL after 10 s); resolves once the process is gone. */
  stop(): Promise<number | null>;
}

/** Spawns `toolhost serve --http --ui <args>` from the sources and waits for both URL lines. */
export function startServeUi(args: readonly string[]): Promise<ServeUiProcess> {
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', BIN, 'serve', '--http', '--ui', ...args],
    { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const pid = child.pid;
  const stop = async () => {
    if (pid === undefined || child.exitCode !== null || child.signalCode !== null) return exited;
    process.kill(pid, 'SIGTERM');
    const kill = setTimeout(() => process.kill(pid, 'SIGKILL'), 10_000);
    const code = await exited;
    clearTimeout(kill);
    return code;
  };
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const mcpUrl = /at (http:\/\/127\.0\.0\.1:\d+\/mcp\?token=[\w-]+)/u.exec(stderr)?.[1];
      const uiUrl = /toolhost ui: (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/u.exec(stderr)?.[1];
      if (mcpUrl === undefined || uiUrl === undefined || pid === undefined) return;
      child.stderr.removeAllListeners('data').resume();
      resolve({ mcpUrl, uiUrl, pid, stop });
    });
    void exited.then((code) =>
      reject(new Error(`serve --ui exited (${code}) before listening: ${stderr}`)),
    );
  });
}
