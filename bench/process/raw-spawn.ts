import { spawn } from 'node:child_process';

/** `child_process.spawn` of one command, its stdout collected: every row's baseline. */
export function rawSpawn(
  command: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly env: Readonly<Record<string, string>> },
): Promise<{ readonly exitCode: number | null; readonly stdout: Buffer }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', (exitCode) => resolve({ exitCode, stdout: Buffer.concat(chunks) }));
  });
}
