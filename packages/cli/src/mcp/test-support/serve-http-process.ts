import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from './serve-client.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin.ts');

/** A real `toolhost serve --http` process and the URL it printed. */
export interface ServeHttpProcess {
  readonly url: string;
  /** Sends SIGTERM and resolves with the exit code once the process is gone. */
  stop(): Promise<number | null>;
}

/** Spawns `toolhost serve --http <args>` and waits for the URL line on stderr. */
export function startServeHttp(args: readonly string[]): Promise<ServeHttpProcess> {
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', BIN, 'serve', '--http', ...args],
    { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp\?token=[\w-]+)/u.exec(stderr)?.[1];
      if (url === undefined) return;
      child.stderr.removeAllListeners('data').resume();
      resolve({
        url,
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    });
    void exited.then((code) =>
      reject(new Error(`serve exited (${code}) before listening: ${stderr}`)),
    );
  });
}
