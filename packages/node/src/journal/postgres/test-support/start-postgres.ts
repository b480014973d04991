import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A PostgreSQL server a test started on loopback, in a temp dir of its own. */
export interface PostgresServer {
  /** `postgresql://postgres@127.0.0.1:<port>/postgres`, trust auth. */
  readonly connectionString: string;
  readonly port: number;
  /** SIGKILLs the server and all its backends (a crash), keeping the data dir. */
  kill(): Promise<void>;
  /** Starts the server again on the same data dir and port, after `kill`. */
  restart(): Promise<void>;
  /** Stops the server (SIGINT, then SIGKILL) and removes its temp dir; idempotent. */
  stop(): Promise<void>;
}

const INSTALL_ROOT = '/usr/lib/postgresql';
const READY = 'database system is ready to accept connections';

/** The newest installed PostgreSQL's bin directory (Debian's layout), or undefined. */
export function findPostgresBin(installRoot = INSTALL_ROOT): string | undefined {
  if (!existsSync(installRoot)) return undefined;
  const versions = readdirSync(installRoot)
    .filter((version) => /^\d+$/.test(version))
    .filter((version) =>
      ['initdb', 'postgres'].every((binary) =>
        existsSync(path.join(installRoot, version, 'bin', binary)),
      ),
    )
    .sort((left, right) => Number(right) - Number(left));
  return versions[0] === undefined ? undefined : path.join(installRoot, versions[0], 'bin');
}

/**
 * Whether a suite that needs PostgreSQL can run: without the binaries it is skipped with a
 * reason on stderr, except under CI (`CI` set), where a missing server is a failure.
 */
export function hasPostgres({
  installRoot = INSTALL_ROOT,
  env = process.env,
}: { readonly installRoot?: string; readonly env?: NodeJS.ProcessEnv } = {}): boolean {
  if (findPostgresBin(installRoot) !== undefined) return true;
  const reason = `no PostgreSQL binaries under ${installRoot}/*/bin (apt-get install postgresql)`;
  if (env['CI'] !== undefined) throw new Error(`CI needs PostgreSQL: ${reason}`);
  process.stderr.write(`skipping the PostgreSQL suites: ${reason}\n`);
  return false;
}

/**
 * Starts a throwaway PostgreSQL on 127.0.0.1 at a free port: `initdb` (trust auth) into a new
 * temp dir, then `postgres` itself in the foreground (its own process group, so a kill reaches
 * every backend), socket in the temp dir, fsync off (a killed process loses nothing the kernel
 * holds; only a power loss would).
 */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = findPostgresBin();
  if (bin === undefined) throw new Error(`no PostgreSQL binaries under ${INSTALL_ROOT}`);
  const base = await mkdtemp(path.join(tmpdir(), 'toolhost-postgres-'));
  const dataDir = path.join(base, 'data');
  const owner = serverUser();
  try {
    await mkdir(dataDir, { mode: 0o700 });
    if (owner !== undefined) {
      await chown(base, owner.uid, owner.gid);
      await chown(dataDir, owner.uid, owner.gid);
    }
    await runToEnd(
      spawn(
        path.join(bin, 'initdb'),
        ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
        { ...owner, stdio: ['ignore', 'ignore', 'pipe'] },
      ),
    );
  } catch (error) {
    await rm(base, { recursive: true, force: true });
    throw error;
  }

  let port = 0;
  let server: ChildProcess | undefined;
  const launch = async (): Promise<void> => {
    server = await launchPostgres({ bin, dataDir, socketDir: base, port, owner });
  };
  const kill = async (): Promise<void> => {
    const running = server;
    server = undefined;
    if (running?.pid !== undefined) await killGroup(running, 'SIGKILL', 0);
  };
  // A free port can be taken between probing it and the server's bind: try a few.
  for (let attempt = 0; ; attempt += 1) {
    port = await freePort();
    try {
      await launch();
      break;
    } catch (error) {
      if (attempt >= 4) {
        await rm(base, { recursive: true, force: true });
        throw error;
      }
    }
  }
  const killOnExit = (): void => {
    if (server?.pid !== undefined) process.kill(-server.pid, 'SIGKILL');
  };
  process.once('exit', killOnExit);
  let stopped = false;
  return {
    connectionString: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    kill,
    restart: async () => {
      await kill();
      await launch();
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      process.off('exit', killOnExit);
      const running = server;
      server = undefined;
      // SIGINT is Postgres's fast shutdown; a server still up after 5 s is killed outright.
      if (running?.pid !== undefined) await killGroup(running, 'SIGINT', 5_000);
      await rm(base, { recursive: true, force: true });
    },
  };
}

// initdb and postgres refuse to run as root: as root, the server runs as the `postgres` user.
function serverUser(): { readonly uid: number; readonly gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    return { uid, gid };
  } catch (error) {
    throw new Error('running as root, but there is no postgres user to run PostgreSQL as', {
      cause: error,
    });
  }
}

async function launchPostgres({
  bin,
  dataDir,
  socketDir,
  port,
  owner,
}: {
  readonly bin: string;
  readonly dataDir: string;
  readonly socketDir: string;
  readonly port: number;
  readonly owner: { readonly uid: number; readonly gid: number } | undefined;
}): Promise<ChildProcess> {
  const child = spawn(
    path.join(bin, 'postgres'),
    [
      '-D',
      dataDir,
      '-k',
      socketDir,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=100',
    ],
    { ...owner, detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      void killGroup(child, 'SIGKILL', 0);
      reject(new Error(`postgres did not become ready in 30 s: ${log.slice(-2000)}`));
    }, 30_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes(READY)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`postgres exited before it was ready: ${log.slice(-2000)}`));
    });
  });
  // Keep draining its log, or a full pipe would stall the server.
  child.stderr?.resume();
  return child;
}

// Signals the server's whole process group, then waits until every process in it is gone: a
// restart on the same data dir is refused while an old backend still holds its shared memory.
async function killGroup(
  child: ChildProcess,
  signal: NodeJS.Signals,
  graceMs: number,
): Promise<void> {
  const group = -(child.pid ?? 0);
  signalGroup(group, signal);
  const deadline = Date.now() + graceMs;
  while (groupAlive(group)) {
    if (signal !== 'SIGKILL' && Date.now() > deadline) {
      signalGroup(group, 'SIGKILL');
      signal = 'SIGKILL';
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function signalGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(group, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

function groupAlive(group: number): boolean {
  try {
    process.kill(group, 0);
    return true;
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function runToEnd(child: ChildProcess): Promise<void> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`initdb failed (${code}): ${stderr.slice(-2000)}`)),
    );
  });
}
