// Starts the Restate server binary that ships in `@restatedev/restate-server` (the same binary
// `npx restate-server` runs) on loopback ports, and stops it by PID.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';

/** A running single-node Restate server. */
export interface RestateServer {
  readonly pid: number;
  readonly ingressUrl: string;
  readonly adminUrl: string;
  /** Registers ONE deployment: every worker of the fleet sits behind this one URL. */
  register(deploymentUrl: string): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the server with its data in `baseDir`; ports are free loopback ports. */
export async function startRestateServer(baseDir: string): Promise<RestateServer> {
  const [ingress, admin, fabric] = [await freePort(), await freePort(), await freePort()];
  const child = spawn(
    serverBinary(),
    ['--no-logo', '--listen-mode', 'tcp', '--base-dir', baseDir, '--node-name', 'fleet'],
    {
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ingress}`,
        RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${admin}`,
        RESTATE_BIND_ADDRESS: `127.0.0.1:${fabric}`,
        RESTATE_ADVERTISED_ADDRESS: `http://127.0.0.1:${fabric}/`,
        RESTATE_LOG_FILTER: 'warn,octocrab=off', // octocrab: its release check, offline here
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const ingressUrl = `http://127.0.0.1:${ingress}`;
  const adminUrl = `http://127.0.0.1:${admin}`;
  try {
    await waitHealthy(`${adminUrl}/health`, child);
    await waitHealthy(`${ingressUrl}/restate/health`, child);
  } catch (error) {
    await stopByPid(child);
    throw error;
  }
  return {
    pid: child.pid ?? -1,
    ingressUrl,
    adminUrl,
    async register(deploymentUrl) {
      const response = await fetch(`${adminUrl}/deployments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ uri: deploymentUrl }),
      });
      if (!response.ok) throw new Error(`registering the deployment failed: ${response.status}`);
    },
    stop: () => stopByPid(child),
  };
}

/** A port free right now on 127.0.0.1. */
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

/** SIGTERM to the child's PID (its process group when it leads one), SIGKILL after 5 s. */
export async function stopByPid(child: ChildProcess, group = false): Promise<void> {
  const pid = child.pid;
  if (pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (name: NodeJS.Signals): void => {
    try {
      process.kill(group ? -pid : pid, name);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

// The platform package holds the binary; `@restatedev/restate-server`'s `bin` only wraps it.
function serverBinary(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve(
    `@restatedev/restate-server-${process.platform}-${process.arch}/package.json`,
  );
  return path.join(path.dirname(manifest), 'bin', 'restate-server');
}

async function waitHealthy(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('restate-server exited while starting');
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('restate-server did not become healthy in 60 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
