import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A Restate server the test started on loopback; `stop()` ends it by PID. */
export interface RestateServer {
  readonly ingressUrl: string;
  readonly adminUrl: string;
  readonly pid: number;
  /** Registers a deployment (a worker endpoint's URL) with the admin API. */
  register(deploymentUrl: string): Promise<void>;
  stop(): Promise<void>;
}

/** A port free right now on 127.0.0.1 (bind port 0, read it, release it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The server binary inside `@restatedev/restate-server`'s platform package. */
export function restateServerBinary(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve(
    `@restatedev/restate-server-${process.platform}-${process.arch}/package.json`,
  );
  return path.join(path.dirname(manifest), 'bin', 'restate-server');
}

/** Starts a single-node Restate server in a fresh temp directory, on free loopback ports. */
export async function startRestateServer(
  options: { readonly baseDir?: string } = {},
): Promise<RestateServer> {
  const baseDir = options.baseDir ?? (await mkdtemp(path.join(tmpdir(), 'toolhost-restate-')));
  const [ingress, admin, fabric] = [await freePort(), await freePort(), await freePort()];
  const child = spawn(
    restateServerBinary(),
    ['--no-logo', '--listen-mode', 'tcp', '--base-dir', baseDir, '--node-name', 'n1'],
    {
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ingress}`,
        RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${admin}`,
        RESTATE_BIND_ADDRESS: `127.0.0.1:${fabric}`,
        RESTATE_ADVERTISED_ADDRESS: `http://127.0.0.1:${fabric}/`,
        RESTATE_DEFAULT_NUM_PARTITIONS: '2',
        RESTATE_LOG_FILTER: 'warn',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-8_000);
  });
  const ingressUrl = `http://127.0.0.1:${ingress}`;
  const adminUrl = `http://127.0.0.1:${admin}`;
  try {
    await waitHealthy(`${adminUrl}/health`, child, () => stderr);
    await waitHealthy(`${ingressUrl}/restate/health`, child, () => stderr);
  } catch (error) {
    await stopChild(child);
    if (options.baseDir === undefined) await rm(baseDir, { recursive: true, force: true });
    throw error;
  }
  return {
    ingressUrl,
    adminUrl,
    pid: child.pid ?? -1,
    async register(deploymentUrl) {
      const response = await fetch(`${adminUrl}/deployments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ uri: deploymentUrl, force: true }),
      });
      if (!response.ok) {
        throw new Error(`restate: registering ${deploymentUrl} failed: ${await response.text()}`);
      }
    },
    async stop() {
      await stopChild(child);
      if (options.baseDir === undefined) await rm(baseDir, { recursive: true, force: true });
    },
  };
}

async function waitHealthy(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`restate-server exited: ${stderr()}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`restate-server not healthy: ${stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** SIGTERM by PID, SIGKILL after 5 s. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
