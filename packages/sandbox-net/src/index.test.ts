import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  accessSync,
  closeSync,
  constants,
  openSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  realpathSync,
} from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSandboxNet, type SandboxNetAddon } from './index.js';

const LOADER = fileURLToPath(new URL('./index.js', import.meta.url));
const PACKAGE = path.join(path.dirname(LOADER), '..');
const O_CLOEXEC = 0o2000000;
const SANDBOX_PORT = 8119;
const MARKER = 'secret-token-7f3a';

// node-gyp builds both targets wherever it finds a compiler and Python (which the fixture peers
// need too): there a missing build fails here instead of silently turning the network off.
const canBuild =
  process.platform === 'linux' &&
  spawnSync('cc', ['--version'], { stdio: 'ignore' }).status === 0 &&
  spawnSync('python3', ['--version'], { stdio: 'ignore' }).status === 0;

const SANDBOX = [
  '--unshare-net',
  '--unshare-pid',
  '--die-with-parent',
  '--cap-drop',
  'ALL',
  '--ro-bind',
  '/usr',
  '/usr',
  '--symlink',
  'usr/lib',
  '/lib',
  '--symlink',
  'usr/lib64',
  '/lib64',
  '--symlink',
  'usr/bin',
  '/bin',
  '--proc',
  '/proc',
  '--dev',
  '/dev',
];
const bwrapWorks =
  canBuild && spawnSync('bwrap', [...SANDBOX, '/usr/bin/true'], { stdio: 'ignore' }).status === 0;

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface Started {
  child: ChildProcess;
  /** The host's end of the handoff pair; the test closes it through `closeOnce`. */
  hostEnd: number;
  exited: Promise<Exit>;
}

const children: ChildProcess[] = [];
const descriptors = new Set<number>();
const servers: net.Server[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        // Exited between the check and the kill.
      }
    }
  }
  for (const fd of descriptors) closeOnce(fd);
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

function addon(): SandboxNetAddon {
  const loaded = loadSandboxNet();
  if (loaded === undefined) throw new Error('sandbox-net addon is not built');
  return loaded;
}

function closeOnce(fd: number): void {
  if (descriptors.delete(fd)) addon().closeFd(fd);
}

function pair(): [number, number] {
  const ends = addon().socketPair();
  for (const fd of ends) descriptors.add(fd);
  return ends;
}

// Spawns `file args` with one end of a fresh pair as its fd 3, closes that end here, and hands
// back the other: what the host does for every sandboxed command with a network allowance.
function start(file: string, args: readonly string[], extraStdio: number[] = []): Started {
  const [hostEnd, childEnd] = pair();
  const child = spawn(file, args, {
    stdio: ['ignore', 'pipe', 'pipe', childEnd, ...extraStdio],
    // No NODE_OPTIONS or extra CA paths from the test runner leak into a sandbox without them.
    env: { PATH: '/usr/bin:/bin' },
  });
  children.push(child);
  closeOnce(childEnd);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<Exit>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, hostEnd, exited };
}

function startInit(args: readonly string[], extraStdio: number[] = []): Started {
  return start(addon().initPath, args, extraStdio);
}

function startSandboxed(command: readonly string[]): Started {
  const inside = '/.toolhost/net-init';
  return start('bwrap', [
    ...SANDBOX,
    '--ro-bind',
    addon().initPath,
    inside,
    inside,
    '3',
    String(SANDBOX_PORT),
    '--',
    ...command,
  ]);
}

// The received fd becomes Node's: server.close() closes it, so it is not tracked for closeFd.
async function receive(started: Started, timeoutMs = 10_000): Promise<number> {
  try {
    return await addon().receiveFd(started.hostEnd, timeoutMs);
  } finally {
    closeOnce(started.hostEnd);
  }
}

function serve<T extends net.Server>(server: T, fd: number): Promise<T> {
  servers.push(server);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ fd }, () => resolve(server));
  });
}

function isCloseOnExec(fd: number): boolean {
  const flags = /^flags:\s+([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'));
  return (parseInt(flags?.[1] ?? '0', 8) & O_CLOEXEC) !== 0;
}

function echoOnce(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => socket.end(text));
    let echoed = '';
    socket.on('data', (chunk: Buffer) => (echoed += chunk.toString('utf8')));
    socket.once('error', reject);
    socket.once('close', () => resolve(echoed));
  });
}

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function thrown(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

function python(script: string): readonly string[] {
  return ['-c', script];
}

describe.runIf(canBuild)('the built addon', () => {
  it('loads, naming an absolute init executable', () => {
    const loaded = loadSandboxNet();

    expect(loaded).toBeDefined();
    expect(path.isAbsolute(loaded?.initPath ?? '')).toBe(true);
    expect(() => accessSync(loaded?.initPath ?? '', constants.X_OK)).not.toThrow();
  });

  it('makes a connected pair of close-on-exec AF_UNIX sockets', () => {
    const [first, second] = pair();

    expect(readlinkSync(`/proc/self/fd/${first}`)).toMatch(/^socket:/);
    expect(readlinkSync(`/proc/self/fd/${second}`)).toMatch(/^socket:/);
    expect(isCloseOnExec(first)).toBe(true);
    expect(isCloseOnExec(second)).toBe(true);
  });

  it('closes a descriptor, and throws EBADF when it is closed twice', () => {
    const [first] = addon().socketPair();

    addon().closeFd(first);

    expect(thrown(() => addon().closeFd(first))).toMatchObject({ code: 'EBADF', syscall: 'close' });
  });
});

describe.runIf(canBuild)('the init outside a namespace', () => {
  it('hands over a close-on-exec listener that the host accepts on', async () => {
    const started = startInit(['3', '0', '--', '/bin/sleep', '30']);

    const fd = await receive(started);
    const closeOnExec = isCloseOnExec(fd);
    const server = await serve(
      net.createServer((socket) => socket.pipe(socket)),
      fd,
    );
    const address = server.address() as net.AddressInfo;

    expect(closeOnExec).toBe(true);
    expect(address.address).toBe('127.0.0.1');
    expect(await echoOnce(address.port, 'bytes both ways')).toBe('bytes both ways');
  });

  it('execs the command in the spawned process itself, adding no descriptor to it', async () => {
    // The baseline is what a plain spawn of the same command holds: the runner may itself have
    // inherited descriptors without CLOEXEC, which every child then inherits too.
    const plain = spawn('/bin/sleep', ['30'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(plain);
    const started = startInit(['3', '0', '--', '/bin/sleep', '30']);
    const pid = started.child.pid ?? -1;
    const sleep = realpathSync('/bin/sleep');

    await serve(net.createServer(), await receive(started));
    await until(() => readlinkSync(`/proc/${pid}/exe`) === sleep);
    await until(() => readlinkSync(`/proc/${plain.pid}/exe`) === sleep);

    const held = readdirSync(`/proc/${pid}/fd`).sort();
    expect(held).toEqual(readdirSync(`/proc/${plain.pid}/fd`).sort());
    expect(held).not.toContain('3');
  });

  it('passes the arguments after -- as the command argv, file first', async () => {
    const started = startInit(['3', '0', '--', '/bin/sh', '-c', 'echo "$$ $0 $1"', 'zero', 'one']);

    await serve(net.createServer(), await receive(started));
    const exit = await started.exited;

    expect(exit).toEqual({ code: 0, stdout: `${started.child.pid} zero one\n`, stderr: '' });
  });
});

describe.runIf(bwrapWorks)('the init inside bubblewrap', () => {
  it('serves a request made inside the sandbox from a server on the host', async () => {
    const nonce = `host-${process.pid}-${Date.now()}`;
    const started = startSandboxed([
      '/usr/bin/node',
      '-e',
      `require('node:http').get('http://127.0.0.1:${SANDBOX_PORT}/inside', (response) => {
        response.setEncoding('utf8');
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => process.stdout.write(body));
      }).on('error', (error) => { console.error(error.code); process.exit(1); });`,
    ]);

    const server = await serve(
      http.createServer((request, response) => response.end(`${nonce} ${request.url}`)),
      await receive(started),
    );
    const exit = await started.exited;

    expect(server.address()).toMatchObject({ address: '127.0.0.1', port: SANDBOX_PORT });
    expect(exit).toEqual({ code: 0, stdout: `${nonce} /inside`, stderr: '' });
  });

  it('listens in the sandbox namespace only: the host namespace cannot reach it', async () => {
    const started = startSandboxed(['/bin/sleep', '30']);
    let reached = 0;
    await serve(
      net.createServer((socket) => {
        reached += 1;
        socket.destroy();
      }),
      await receive(started),
    );

    // Refused, or some other listener of the host's: either way never the sandbox's.
    await new Promise<void>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port: SANDBOX_PORT }, () => socket.end());
      socket.once('error', () => resolve());
      socket.once('close', () => resolve());
    });
    await new Promise((resolve) => setTimeout(resolve, 100));

    expect(reached).toBe(0);
  });

  it('reads EOF promptly when the init fails inside the sandbox', async () => {
    const started = startSandboxed([`/nonexistent/${MARKER}`]);
    const since = Date.now();

    const received = receive(started);

    await expect(received).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(Date.now() - since).toBeLessThan(5000);
    expect((await started.exited).code).toBe(127);
  });
});

describe.runIf(canBuild)('the init refusing to start', () => {
  it.each<[string, string[]]>([
    ['no -- separator', ['3', '0', '/bin/true', MARKER]],
    ['a -- in the wrong place', ['3', '--', '0', '/bin/true', MARKER]],
    ['no command', ['3', '0', '--']],
    ['a handoff descriptor that is stdio', ['1', '0', '--', '/bin/true', MARKER]],
    ['a handoff descriptor with a leading zero', ['03', '0', '--', '/bin/true', MARKER]],
    ['a handoff descriptor that is not open', ['9', '0', '--', '/bin/true', MARKER]],
    ['a handoff descriptor past INT_MAX', ['2147483648', '0', '--', '/bin/true', MARKER]],
    ['a port past 65535', ['3', '65536', '--', '/bin/true', MARKER]],
    ['a signed port', ['3', '+80', '--', '/bin/true', MARKER]],
    ['a port with trailing text', ['3', '80x', '--', '/bin/true', MARKER]],
    ['an empty port', ['3', '', '--', '/bin/true', MARKER]],
    ['a relative command', ['3', '0', '--', 'true', MARKER]],
    ['a command that does not exist', ['3', '0', '--', `/nonexistent/${MARKER}`]],
    ['a command that is a directory', ['3', '0', '--', '/usr', MARKER]],
  ])('exits 127 on %s, and the host reads EOF at once', async (_case, args) => {
    const started = startInit(args);
    const since = Date.now();

    const received = receive(started);

    await expect(received).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(Date.now() - since).toBeLessThan(3000);
    const exit = await started.exited;
    expect(exit.code).toBe(127);
    expect(exit.stdout).toBe('');
    expect(exit.stderr).toMatch(/^toolhost-sandbox-net-init: [^\n]+\n$/);
    expect(exit.stderr).not.toContain(MARKER);
  });

  it('exits 127 when the handoff descriptor is not a socket', async () => {
    const file = openSync('/dev/null', 'r');
    const started = startInit(['4', '0', '--', '/bin/true'], [file]);
    closeSync(file);

    await expect(receive(started)).rejects.toMatchObject({ code: 'ECONNRESET' });
    const exit = await started.exited;
    expect(exit.code).toBe(127);
    expect(exit.stderr).toBe('toolhost-sandbox-net-init: handoff-fd is not a socket\n');
  });

  it('exits 127 when the port is taken, and the host reads EOF', async () => {
    const taken = await new Promise<net.Server>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => resolve(server));
    });
    servers.push(taken);
    const port = (taken.address() as net.AddressInfo).port;
    const started = startInit(['3', String(port), '--', '/bin/true']);

    await expect(receive(started)).rejects.toMatchObject({ code: 'ECONNRESET' });
    const exit = await started.exited;
    expect(exit.code).toBe(127);
    expect(exit.stderr).toBe(
      'toolhost-sandbox-net-init: could not bind 127.0.0.1 to the port: Address already in use\n',
    );
  });

  it('exits 127, not by SIGPIPE, when the host closed its end first', async () => {
    const [hostEnd, childEnd] = pair();
    closeOnce(hostEnd);
    const child = spawn(addon().initPath, ['3', '0', '--', '/bin/true'], {
      stdio: ['ignore', 'ignore', 'pipe', childEnd],
    });
    children.push(child);
    closeOnce(childEnd);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));

    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.once('close', (...exit) => resolve(exit)),
    );

    expect({ code, signal, stderr }).toEqual({
      code: 127,
      signal: null,
      stderr: 'toolhost-sandbox-net-init: could not send the listener to the host: Broken pipe\n',
    });
  });
});

describe.runIf(canBuild)('receiveFd', () => {
  it('rejects with ETIMEDOUT when the peer never sends', async () => {
    const [hostEnd] = pair();
    const since = Date.now();

    const received = addon().receiveFd(hostEnd, 200);

    await expect(received).rejects.toMatchObject({ code: 'ETIMEDOUT', errno: -110 });
    expect(Date.now() - since).toBeGreaterThanOrEqual(190);
    expect(Date.now() - since).toBeLessThan(2000);
  });

  it('rejects with EPROTO when the message carries no descriptor', async () => {
    const started = start('python3', python(`import socket; socket.socket(fileno=3).send(b'x')`));

    await expect(receive(started)).rejects.toMatchObject({ code: 'EPROTO' });
  });

  it('rejects with EPROTO on two descriptors, and closes both', async () => {
    // The peer sends two copies of a pipe's write end and keeps only the read end: EOF there
    // proves the host closed every copy it was given.
    const started = start(
      'python3',
      python(`import os, select, socket
peer = socket.socket(fileno=3)
read_end, write_end = os.pipe()
socket.send_fds(peer, [b'x'], [write_end, write_end])
os.close(write_end)
ready, _, _ = select.select([read_end], [], [], 5)
print('released' if ready and os.read(read_end, 1) == b'' else 'held')`),
    );

    await expect(receive(started)).rejects.toMatchObject({ code: 'EPROTO' });
    expect((await started.exited).stdout).toBe('released\n');
  });

  it('names a failed recvmsg by its errno', async () => {
    const file = openSync('/dev/null', 'r');
    try {
      const received = addon().receiveFd(file, 1000);

      await expect(received).rejects.toMatchObject({ code: 'ENOTSOCK', syscall: 'recvmsg' });
    } finally {
      closeSync(file);
    }
  });

  it.each<[string, unknown, unknown]>([
    ['a negative descriptor', -1, 1000],
    ['a fractional timeout', 3, 1.5],
    ['a NaN timeout', 3, Number.NaN],
    ['a string descriptor', '3', 1000],
    ['a timeout past 2^31 - 1 ms', 3, 2 ** 31],
  ])('rejects %s with a TypeError', async (_case, fd, timeoutMs) => {
    const received = addon().receiveFd(fd as number, timeoutMs as number);

    await expect(received).rejects.toMatchObject({
      name: 'TypeError',
      code: 'ERR_INVALID_ARG_VALUE',
    });
  });
});

describe('the loader', () => {
  async function loadCopy(withAddon: boolean, initMode: number | undefined): Promise<string> {
    const directory = await mkdtemp(path.join(tmpdir(), 'toolhost-sandbox-net-'));
    try {
      await mkdir(path.join(directory, 'src'));
      await mkdir(path.join(directory, 'build', 'Release'), { recursive: true });
      await copyFile(LOADER, path.join(directory, 'src', 'index.js'));
      await copyFile(path.join(PACKAGE, 'package.json'), path.join(directory, 'package.json'));
      const release = path.join(PACKAGE, 'build', 'Release');
      if (withAddon) {
        await copyFile(
          path.join(release, 'sandbox_net.node'),
          path.join(directory, 'build', 'Release', 'sandbox_net.node'),
        );
      }
      if (initMode !== undefined) {
        const init = path.join(directory, 'build', 'Release', 'toolhost-sandbox-net-init');
        await copyFile(path.join(release, 'toolhost-sandbox-net-init'), init);
        await chmod(init, initMode);
      }
      const printed = execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import { loadSandboxNet } from ${JSON.stringify(path.join(directory, 'src', 'index.js'))};
           const loaded = loadSandboxNet();
           console.log(loaded === undefined ? 'undefined' : loaded.initPath);`,
        ],
        { encoding: 'utf8' },
      );
      return printed.trim().replace(directory, '<copy>');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }

  it('returns undefined, never throws, when nothing was built', async () => {
    expect(await loadCopy(false, undefined)).toBe('undefined');
  });

  it.runIf(canBuild).each<[string, string, boolean, number | undefined]>([
    [
      'the addon and an executable init',
      '<copy>/build/Release/toolhost-sandbox-net-init',
      true,
      0o755,
    ],
    ['the addon without its init', 'undefined', true, undefined],
    ['the addon with an init that is not executable', 'undefined', true, 0o644],
    ['an init without the addon', 'undefined', false, 0o755],
  ])('given %s, returns %s', async (_case, expected, withAddon, initMode) => {
    expect(await loadCopy(withAddon, initMode)).toBe(expected);
  });
});
