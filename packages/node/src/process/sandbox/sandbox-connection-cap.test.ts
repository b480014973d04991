import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { createNodeToolHost, type NodeToolHostHandle } from '../../create-node-tool-host.js';
import { mapLookup } from '../../egress/test-support/map-lookup.js';
import { createTestCertificate } from '../../egress/test-support/test-certificate.js';
import {
  startTestHttpsServer,
  type TestHttpsServer,
} from '../../egress/test-support/test-https-server.js';
import type { SandboxEgressDecision } from './egress-proxy.js';
import { SANDBOX_PROXY_PORT } from './sandbox-env.js';
import type { SandboxNetworkOptions } from './sandbox-options.js';

// Issue 34, done when: 4 000 idle connections from one sandbox cost the host at most the cap in
// descriptors while another sandbox still connects. Real bwrap, the real native init, a real
// program inside opening real sockets; the descriptors are counted on the host.
const FLOOD = 4_000;
const PER_SANDBOX = 256;
// The host's own churn while the flood runs: the flooding spawn's pipes, seccomp program and
// listener, the curl spawn's, its tunnel's two sockets, the HTTPS server's side, timers' fds.
const SLACK = 40;

// Opens FLOOD connections to the proxy and sends nothing. It waits until the host's refusals have
// arrived (their count stops changing), reports how many it still holds, then holds them until
// the test says stop.
const FLOOD_PROGRAM = String.raw`
import select, socket, sys, time
port, count, name = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
sockets = []
for _ in range(count):
    s = socket.socket()
    s.connect(('127.0.0.1', port))
    sockets.append(s)
closed = set()
def refused():
    poller = select.poll()
    for s in sockets:
        if s.fileno() not in closed:
            poller.register(s, select.POLLIN | select.POLLHUP | select.POLLERR)
    for fd, _ in poller.poll(0):
        closed.add(fd)
    return len(closed)
last, stable_since = -1, time.time()
while time.time() - stable_since < 1.0:
    now = refused()
    if now != last:
        last, stable_since = now, time.time()
    time.sleep(0.05)
with open(name + '-ready.tmp', 'w') as f:
    f.write('%d %d' % (count - last, last))
import os
os.rename(name + '-ready.tmp', name + '-ready')
deadline = time.time() + 20
while not os.path.exists(name + '-stop') and time.time() < deadline:
    time.sleep(0.05)
print('%d %d' % (count - refused(), len(closed)))
`;

const hostDescriptors = (): number => readdirSync('/proc/self/fd').length;

describe.skipIf(process.platform !== 'linux')('the sandbox network connection cap', () => {
  let base = '';
  let server: TestHttpsServer;
  const handles: NodeToolHostHandle[] = [];

  beforeAll(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-sbx-cap-')));
    const certificate = createTestCertificate();
    server = await startTestHttpsServer(certificate);
    server.handler = (_request, response) => response.end('through the proxy');
    await writeFile(path.join(base, 'ca.pem'), certificate.ca);
    await writeFile(path.join(base, 'flood.py'), FLOOD_PROGRAM);
  });

  afterAll(async () => {
    for (const handle of handles) await handle.close();
    await server?.close();
    await rm(base, { recursive: true, force: true });
  });

  /** A host whose commands may reach `egress.test` (the loopback server), with these caps. */
  async function startHost(caps: Partial<SandboxNetworkOptions> = {}) {
    const decisions: SandboxEgressDecision[] = [];
    const handle = await createNodeToolHost({
      root: base,
      stateDir: path.join(base, '.state'),
      egress: {
        lookup: mapLookup({ 'egress.test': ['127.0.0.1'] }),
        dangerouslyAllowRanges: ['127.0.0.0/8'],
      },
      process: {
        sandbox: 'required',
        timeoutMs: 25_000,
        network: { allowedDomains: ['egress.test'], ...caps },
        onNetworkDecision: (decision) => decisions.push(decision),
      },
    });
    handles.push(handle);
    const spawn = (command: string, args: readonly string[]) =>
      handle.host.process!.spawn(command, args, {}, {});
    const curl = () =>
      spawn('curl', [
        '-sS',
        '--max-time',
        '10',
        '--cacert',
        'ca.pem',
        `https://egress.test:${server.port}/`,
      ]);
    /** Starts one flooding sandbox; `held` once the host's refusals have reached it. */
    const flood = async (name: string, count: number) => {
      const result = spawn('/usr/bin/python3', [
        'flood.py',
        String(SANDBOX_PROXY_PORT),
        String(count),
        name,
      ]);
      const ready = path.join(base, `${name}-ready`);
      await vi.waitFor(() => expect(existsSync(ready)).toBe(true), {
        timeout: 20_000,
        interval: 100,
      });
      const [held = -1, refused = -1] = (await readFile(ready, 'utf8')).split(' ').map(Number);
      return {
        held,
        refused,
        stop: async () => {
          await writeFile(path.join(base, `${name}-stop`), '');
          return result;
        },
      };
    };
    const refusals = (limit: 'sandbox' | 'host'): number =>
      decisions
        .filter((event) => event.reason === 'connection_limit' && event.connectionLimit === limit)
        .reduce((sum, event) => sum + (event.refusedConnections ?? 0), 0);
    return { decisions, curl, flood, refusals };
  }

  it('holds at most the per-sandbox cap of a 4 000-connection flood while another sandbox connects', async () => {
    const host = await startHost();
    // Warm: the sandbox, the probe and the network helper load once, outside the count.
    expect((await host.curl()).stdout).toBe('through the proxy');
    const before = hostDescriptors();

    const flood = await host.flood('big', FLOOD);
    const during = hostDescriptors();
    const other = await host.curl();
    const flooded = await flood.stop();

    expect(flood.held).toBe(PER_SANDBOX);
    expect(flood.refused).toBe(FLOOD - PER_SANDBOX);
    // Each held connection is one host descriptor; the refused ones hold none.
    expect(during - before).toBeGreaterThanOrEqual(PER_SANDBOX);
    expect(during - before).toBeLessThanOrEqual(PER_SANDBOX + SLACK);
    expect(other.stdout).toBe('through the proxy');
    expect(flooded.exitCode).toBe(0);
    // Every refusal counted, in a handful of summed events rather than 3 744.
    await vi.waitFor(() => expect(host.refusals('sandbox')).toBe(FLOOD - PER_SANDBOX));
    const limited = host.decisions.filter((event) => event.reason === 'connection_limit');
    expect(limited.length).toBeLessThanOrEqual(30);
    expect(host.refusals('host')).toBe(0);
    // The flood's slots come back once its connections close: nothing leaks on the host.
    await vi.waitFor(() => expect(hostDescriptors()).toBeLessThanOrEqual(before + 4), {
      timeout: 10_000,
    });
  }, 60_000);

  it("caps the host's total across its spawns, and refuses a new spawn's connection at it", async () => {
    const host = await startHost({ maxConnectionsPerSandbox: 3, maxConnections: 4 });

    const first = await host.flood('first', 10);
    const second = await host.flood('second', 10);
    const starved = await host.curl();
    await Promise.all([first.stop(), second.stop()]);

    expect([first.held, second.held]).toEqual([3, 1]);
    expect(starved.exitCode).not.toBe(0);
    expect(starved.stdout).not.toContain('through the proxy');
    await vi.waitFor(() => {
      expect(host.refusals('sandbox')).toBe(7);
      expect(host.refusals('host')).toBeGreaterThanOrEqual(10);
    });
  }, 60_000);

  it('refuses a bad cap when the host is created', async () => {
    const attempt = startHost({ maxConnections: 0 });

    await expect(attempt).rejects.toThrow(TypeError);
  });
});
