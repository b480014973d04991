import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { createServer as createTcpServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeToolHost, type NodeToolHostHandle } from '../../create-node-tool-host.js';
import { mapLookup } from '../../egress/test-support/map-lookup.js';
import { createTestCertificate } from '../../egress/test-support/test-certificate.js';
import {
  startTestHttpsServer,
  type TestHttpsServer,
} from '../../egress/test-support/test-https-server.js';
import { createProcessArm } from '../create-process-arm.js';
import type { SandboxEgressDecision } from './egress-proxy.js';
import type { SandboxQuarantineEvent } from './quarantine-config-file.js';

// An allowlisted workspace script that tries what an attacker would, asserted on the HOST after.
// Real bwrap, real processes; this machine and CI run Linux as root with bubblewrap installed.
const HOST_SECRET = `host-secret-${process.pid}-${Date.now()}`;

describe.skipIf(process.platform !== 'linux')('the process sandbox, attacked', () => {
  let base = '';
  let root = '';
  let outside = '';
  let home = '';
  let handle: NodeToolHostHandle;
  let tcp: Server;
  let tcpPort = 0;
  let abstract: Server;
  let tcpConnections = 0;
  // A host process whose environment holds a credential, as the agent's own parent would.
  let holder: ChildProcess | undefined;
  const quarantined: SandboxQuarantineEvent[] = [];

  const run = async (script: string, options: { cwd?: string } = {}) => {
    const spawnInHost = handle.host.process?.spawn;
    if (spawnInHost === undefined) throw new Error('no process arm');
    return spawnInHost(
      '/bin/sh',
      ['-c', script],
      {},
      options.cwd === undefined ? {} : { cwd: options.cwd },
    );
  };

  beforeAll(async () => {
    holder = spawn('sleep', ['60'], { env: { PATH: '/usr/bin:/bin', API_TOKEN: HOST_SECRET } });
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-sbx-')));
    root = path.join(base, 'ws');
    outside = path.join(base, 'outside');
    home = path.join(base, 'home');
    await mkdir(root);
    await mkdir(outside);
    await mkdir(path.join(home, '.ssh'), { recursive: true });
    await writeFile(path.join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY');
    await writeFile(
      path.join(home, '.gitconfig'),
      '[user]\n\tname = Host User\n\temail = host@example.test\n',
    );
    await writeFile(path.join(outside, 'secret.txt'), 'outside secret');
    execFileSync('git', ['init', '-q', root]);
    execFileSync('git', [
      '-C',
      root,
      'remote',
      'add',
      'origin',
      'https://user:tok-123@example.test/r.git',
    ]);
    await writeFile(path.join(root, '.env'), 'API_KEY=workspace-secret');
    await mkdir(path.join(root, 'deploy', '.aws'), { recursive: true });
    await writeFile(path.join(root, 'deploy', '.aws', 'credentials'), 'aws-secret');
    await writeFile(path.join(root, 'deploy', '.npmrc'), '//registry/:_authToken=npm-secret');
    await writeFile(path.join(root, '.bashrc'), 'echo original');
    await writeFile(path.join(root, 'a.txt'), 'hello\n');
    await writeFile(
      path.join(root, 'package.json'),
      JSON.stringify({
        name: 'fixture',
        version: '1.0.0',
        scripts: { test: 'node -e "console.log(\'tests ran\')"' },
      }),
    );
    tcp = createTcpServer((socket) => {
      tcpConnections += 1;
      socket.end('host tcp');
    });
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    tcpPort = (tcp.address() as { port: number }).port;
    abstract = createTcpServer((socket) => socket.end('host abstract'));
    await new Promise<void>((resolve) => abstract.listen(`\0toolhost-sbx-${process.pid}`, resolve));
    handle = await createNodeToolHost({
      root,
      stateDir: path.join(base, 'state'),
      process: {
        sandbox: 'required',
        hostEnv: { ...process.env, HOME: home },
        timeoutMs: 20_000,
        onQuarantine: (event) => quarantined.push(event),
      },
    });
  });

  afterAll(async () => {
    if (holder?.pid !== undefined) process.kill(holder.pid, 'SIGKILL');
    await handle?.close();
    await new Promise((resolve) => tcp?.close(resolve));
    await new Promise((resolve) => abstract?.close(resolve));
    await rm(base, { recursive: true, force: true });
  });

  it('cannot read a file outside the root by absolute path', async () => {
    const result = await run(
      `cat ${outside}/secret.txt; ls ${base}; test -d /var && echo HOST_VAR`,
    );
    expect(result.stdout).not.toContain('HOST_VAR');
    expect(result.stdout).not.toContain('outside secret');
    expect(result.stdout).not.toContain('outside');
  });

  it('reads /etc/shadow and the host home as empty', async () => {
    const result = await run(
      `cat /etc/shadow; cat $HOME/.ssh/id_ed25519; ls -A $HOME; cat $HOME/.gitconfig`,
    );
    expect(result.stdout).not.toMatch(/root:|PRIVATE KEY|Host User/);
    expect(result.stdout.trim()).toBe('');
  });

  it("never sees the host's environment through /proc", async () => {
    const result = await run(
      'cat /proc/1/environ /proc/$PPID/environ /proc/*/environ 2>/dev/null; env',
    );
    expect(result.stdout).not.toContain(HOST_SECRET);
  });

  it('sees only its own processes and cannot signal a host one', async () => {
    const result = await run(
      `ls /proc | grep -c '^[0-9]'; kill -0 ${process.pid} && echo signalled`,
    );
    expect(Number(result.stdout.split('\n')[0])).toBeLessThan(10);
    expect(result.stdout).not.toContain('signalled');
  });

  it('masks read-floor names inside the workspace', async () => {
    const result = await run(
      'cat .env deploy/.aws/credentials deploy/.npmrc; ls -A deploy/.aws; echo planted > deploy/.aws/config',
    );
    expect(result.stdout).not.toMatch(/workspace-secret|aws-secret|npm-secret|credentials/);
    // A masked directory is an empty tmpfs: what is written there is gone with the sandbox.
    expect(existsSync(path.join(root, 'deploy', '.aws', 'config'))).toBe(false);
    expect(await readFile(path.join(root, 'deploy', '.aws', 'credentials'), 'utf8')).toBe(
      'aws-secret',
    );
  });

  it('shows git a filtered config: no credential in a remote URL or in .git/credentials', async () => {
    await writeFile(
      path.join(root, '.git', 'credentials'),
      'https://u:git-cred-secret@example.test',
    );
    const result = await run('cat .git/config .git/credentials; git remote get-url origin');
    expect(result.stdout).not.toContain('git-cred-secret');
    expect(result.stdout).not.toContain('tok-123');
    expect(result.stdout).toContain('https://example.test/r.git');
  });

  it('cannot write outside the root, and /tmp is private', async () => {
    await run(`echo x > ${outside}/planted; echo y > /tmp/toolhost-sbx-planted-${process.pid}`);
    expect(existsSync(path.join(outside, 'planted'))).toBe(false);
    expect(existsSync(`/tmp/toolhost-sbx-planted-${process.pid}`)).toBe(false);
  });

  it('cannot plant a hook, rewrite .git/config, the config file, .env or a shell startup file', async () => {
    const configBefore = await readFile(path.join(root, '.git', 'config'), 'utf8');
    await run(
      [
        'echo evil > .git/hooks/pre-commit',
        'chmod +x .git/hooks/pre-commit',
        'echo "[core] fsmonitor = evil" >> .git/config',
        'echo "{}" > toolhost.config.json',
        'echo EVIL=1 > .env',
        'echo evil > .bashrc',
        'mv .git .git-moved',
      ].join('; '),
    );
    expect(existsSync(path.join(root, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(await readFile(path.join(root, '.git', 'config'), 'utf8')).toBe(configBefore);
    expect(existsSync(path.join(root, 'toolhost.config.json'))).toBe(false);
    for (const name of await readdir(root)) {
      if (name.startsWith('toolhost.config.json.')) await rm(path.join(root, name));
    }
    expect(await readFile(path.join(root, '.env'), 'utf8')).toBe('API_KEY=workspace-secret');
    expect(await readFile(path.join(root, '.bashrc'), 'utf8')).toBe('echo original');
    expect(existsSync(path.join(root, '.git-moved'))).toBe(false);
  });

  it('cannot create a missing protected name: the hooks stub stays empty, the config file is quarantined', async () => {
    const hooks = path.join(root, '.git', 'hooks');
    await rm(hooks, { recursive: true, force: true });
    const result = await run(
      'mkdir -p .git/hooks 2>&1; echo evil > .git/hooks/post-checkout 2>&1; ls -A .git/hooks; echo "{}" > toolhost.config.json',
    );
    expect(result.stdout).not.toContain('post-checkout');
    // An empty read-only stub, as `git init` would have made, left for every later run.
    expect(await readdir(hooks)).toEqual([]);
    expect(existsSync(path.join(root, 'toolhost.config.json'))).toBe(false);
    const moved = (await readdir(root)).filter((name) =>
      name.startsWith('toolhost.config.json.toolhost-quarantined-'),
    );
    expect(moved.length).toBeGreaterThan(0);
    expect(quarantined).toContainEqual({
      kind: 'config_file',
      toolId: 'run_command',
      name: 'toolhost.config.json',
      change: 'appeared',
      quarantinedAs: moved[0],
    });
    for (const name of moved) await rm(path.join(root, name));
  });

  it('cannot reach a host TCP server, a host abstract socket, or DNS', async () => {
    const result = await run(
      [
        `node -e "require('net').connect(${tcpPort},'127.0.0.1').on('data',d=>console.log(String(d))).on('error',e=>console.log('tcp',e.code))"`,
        `node -e "require('net').connect('\\0toolhost-sbx-${process.pid}').on('data',d=>console.log(String(d))).on('error',e=>console.log('abstract',e.code))"`,
        `node -e "require('dns').lookup('example.com',(e)=>console.log('dns',e&&e.code))"`,
      ].join('; '),
    );
    expect(result.stdout).not.toContain('host tcp');
    expect(result.stdout).not.toContain('host abstract');
    expect(result.stdout).toContain('tcp ECONNREFUSED');
    expect(result.stdout).toMatch(/dns E[A-Z]+/);
    expect(tcpConnections).toBe(0);
  });

  it('cannot mount, unshare or ptrace', async () => {
    const result = await run(
      // A mount point of the test's own: were the sandbox ever to fail open, a host mount here
      // is harmless (and unmounted by the assertion's cleanup).
      'mkdir -p mnt; mount -t tmpfs none mnt 2>&1 && echo MOUNTED; unshare -r true 2>&1 && echo UNSHARED; strace -f true 2>&1 | tail -1; true',
    );
    expect(result.stdout).not.toContain('MOUNTED');
    expect(result.stdout).not.toContain('UNSHARED');
    expect(result.stdout).not.toMatch(/exited with 0/);
  });

  it('kills a setsid child with the call', async () => {
    const marker = `31.${process.pid % 1000}7`;
    await run(`setsid sleep ${marker} & echo started`);
    await expect
      .poll(() => execFileSync('ps', ['-eo', 'args']).toString().includes(`sleep ${marker}`), {
        timeout: 3_000,
      })
      .toBe(false);
  });

  it('lets an allowed program work in the workspace: node writes, git status/log/commit, npm test', async () => {
    const wrote = await run(`node -e "require('fs').writeFileSync('out.txt','made inside')"`);
    expect(wrote.exitCode).toBe(0);
    expect(await readFile(path.join(root, 'out.txt'), 'utf8')).toBe('made inside');
    const git = await run(
      'git add a.txt && git commit -qm first && git log --format=%an%n%s && git status --short',
    );
    expect(git.stderr).toBe('');
    expect(git.stdout).toContain('Host User');
    expect(git.stdout).toContain('first');
    const npm = await run('npm test --silent');
    expect(npm.stdout).toContain('tests ran');
  });

  it('fails closed when bubblewrap is unavailable, and runs nothing', async () => {
    const arm = createProcessArm({
      root,
      sandbox: 'required',
      bwrapPath: path.join(base, 'no-bwrap'),
    });
    const attempt = arm.spawn('/bin/sh', ['-c', `touch ${root}/ran`], {}, {});
    await expect(attempt).rejects.toMatchObject({
      code: 'tool_unavailable',
      reason: 'sandbox_unavailable',
      message: expect.stringContaining('install bubblewrap'),
    });
    expect(existsSync(path.join(root, 'ran'))).toBe(false);
  });

  it('runs with no capabilities, no_new_privs and a seccomp filter', async () => {
    const result = await run("grep -E '^(CapEff|CapBnd|NoNewPrivs|Seccomp):' /proc/self/status");
    expect(result.stdout).toMatch(/CapEff:\s+0000000000000000/);
    expect(result.stdout).toMatch(/CapBnd:\s+0000000000000000/);
    expect(result.stdout).toMatch(/NoNewPrivs:\s+1/);
    expect(result.stdout).toMatch(/Seccomp:\s+2/);
  });

  it('enforces the open-files and file-size budgets inside', async () => {
    const arm = createProcessArm({
      root,
      sandbox: 'required',
      budgets: { openFiles: 64, fileSizeBytes: 4096 },
    });
    const result = await arm.spawn(
      '/bin/sh',
      ['-c', 'ulimit -n; head -c 8192 /dev/zero > big.bin; wc -c < big.bin; rm -f big.bin'],
      {},
      {},
    );
    expect(result.stdout.split('\n').slice(0, 2)).toEqual(['64', '4096']);
    expect(await arm.describeContainment()).toMatchObject({ budgets: 'prlimit' });
  });

  it('maps a signal death back from bwrap', async () => {
    const result = await run('kill -TERM $$');
    expect(result).toMatchObject({ exitCode: null, signal: 'SIGTERM' });
  });

  it('still reports the tree as a sandboxed PID namespace', async () => {
    const process_ = handle.host.process as unknown as { describeContainment(): Promise<unknown> };
    expect(await process_.describeContainment()).toMatchObject({
      containment: 'pid-namespace',
      mechanism: 'bwrap',
      sandbox: { mode: 'required', available: true, seccomp: 'on', network: 'none' },
    });
  });
});

describe.skipIf(process.platform !== 'linux')('declared extra paths', () => {
  let base = '';
  let root = '';
  let data = '';
  beforeAll(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-sbx-extra-')));
    root = path.join(base, 'ws');
    data = path.join(base, 'data');
    await mkdir(root);
    await mkdir(data);
    await writeFile(path.join(data, 'table.csv'), 'a,b');
    await writeFile(path.join(data, '.env'), 'DATA_SECRET=1');
    execFileSync('git', ['init', '-q', path.join(data, 'repo')]);
    execFileSync('git', [
      '-C',
      path.join(data, 'repo'),
      'config',
      'remote.o.url',
      'https://u:data-token@x.test/r',
    ]);
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  it('cannot uncover a mask: /etc, the home or a repository config declared read-only', async () => {
    const arm = createProcessArm({ root, sandbox: 'required', readOnlyPaths: ['/etc', data] });
    const result = await arm.spawn(
      '/bin/sh',
      ['-c', `cat /etc/shadow ${data}/table.csv ${data}/.env ${data}/repo/.git/config`],
      {},
      {},
    );
    expect(result.stdout).toContain('a,b');
    expect(result.stdout).not.toMatch(/root:|DATA_SECRET|data-token/);
  });

  it("refuses a declared path over the sandbox's own /proc, /sys or /dev", () => {
    for (const view of ['/proc', '/proc/1', '/sys', '/dev']) {
      expect(() => createProcessArm({ root, sandbox: 'required', readOnlyPaths: [view] })).toThrow(
        TypeError,
      );
    }
  });
});

describe.skipIf(process.platform !== 'linux')('the full tier', () => {
  let base = '';
  let root = '';
  let home = '';
  let handle: NodeToolHostHandle;

  beforeAll(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-sbx-full-')));
    root = path.join(base, 'ws');
    home = path.join(base, 'home');
    await mkdir(root);
    await mkdir(path.join(home, '.aws'), { recursive: true });
    await writeFile(path.join(home, '.aws', 'credentials'), 'aws-home-secret');
    await writeFile(path.join(home, '.netrc'), 'machine x password netrc-secret');
    await writeFile(path.join(home, 'notes.txt'), 'ordinary notes');
    handle = await createNodeToolHost({
      root,
      fsScope: 'full',
      stateDir: path.join(base, 'state'),
      // The private /tmp covers this test's home (it lives under /tmp): shown again as a declared
      // path, like a real home under the read-only host.
      process: {
        sandbox: 'required',
        hostEnv: { ...process.env, HOME: home },
        readOnlyPaths: [home],
      },
    });
  });

  afterAll(async () => {
    await handle?.close();
    await rm(base, { recursive: true, force: true });
  });

  it('shows the host read-only, the workspace read-write, and the home credential stores masked', async () => {
    const result = await handle.host.process!.spawn(
      '/bin/sh',
      [
        '-c',
        [
          `cat ${home}/notes.txt`,
          'test -d /var/lib && echo HOST_VAR_VISIBLE',
          `cat ${home}/.aws/credentials ${home}/.netrc /etc/shadow`,
          `echo x > ${home}/planted`,
          `echo y > ${root}/made.txt`,
          `ls ${base}/state`,
        ].join('; '),
      ],
      {},
      {},
    );

    expect(result.stdout).toContain('ordinary notes');
    expect(result.stdout).toContain('HOST_VAR_VISIBLE');
    expect(result.stdout).not.toMatch(/aws-home-secret|netrc-secret|root:/);
    expect(existsSync(path.join(home, 'planted'))).toBe(false);
    expect(await readFile(path.join(root, 'made.txt'), 'utf8')).toBe('y\n');
  });
});

describe.skipIf(process.platform !== 'linux')('the network allowance', () => {
  let base = '';
  let server: TestHttpsServer;
  let handle: NodeToolHostHandle;
  const decisions: SandboxEgressDecision[] = [];

  beforeAll(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-sbx-net-')));
    const certificate = createTestCertificate();
    server = await startTestHttpsServer(certificate);
    server.handler = (_request, response) => response.end('through the proxy');
    await writeFile(path.join(base, 'ca.pem'), certificate.ca);
    handle = await createNodeToolHost({
      root: base,
      stateDir: path.join(base, '.state'),
      egress: {
        lookup: mapLookup({ 'egress.test': ['127.0.0.1'], 'evil.example.net': ['127.0.0.1'] }),
        dangerouslyAllowRanges: ['127.0.0.0/8'],
      },
      process: {
        sandbox: 'required',
        network: { allowedDomains: ['egress.test'] },
        onNetworkDecision: (decision) => decisions.push(decision),
      },
    });
  });

  afterAll(async () => {
    await handle?.close();
    await server?.close();
    await rm(base, { recursive: true, force: true });
  });

  const curl = (host: string) =>
    handle.host.process!.spawn(
      'curl',
      ['-sS', '--max-time', '10', '--cacert', 'ca.pem', `https://${host}:${server.port}/`],
      {},
      {},
    );

  it('reaches an allowed domain through the host proxy', async () => {
    const result = await curl('egress.test');
    expect(result.stdout).toBe('through the proxy');
    await expect
      .poll(() => decisions.find((decision) => decision.host === 'egress.test'))
      .toMatchObject({ outcome: 'allowed', port: server.port });
  });

  it('refuses a domain that is not allowed, before any upstream connection', async () => {
    const before = server.connections();
    const result = await curl('evil.example.net');
    expect(result.exitCode).not.toBe(0);
    expect(result.stdout).not.toContain('through the proxy');
    expect(server.connections()).toBe(before);
    expect(decisions).toContainEqual(
      expect.objectContaining({
        host: 'evil.example.net',
        outcome: 'denied',
        reason: 'domain_not_allowed',
      }),
    );
  });
});
