import { once } from 'node:events';
import { connect as netConnect, createServer, type AddressInfo, type Socket } from 'node:net';

import { ProxyAgent, request as undiciRequest } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { mapLookup } from '../../egress/test-support/map-lookup.js';
import { createTestCertificate } from '../../egress/test-support/test-certificate.js';
import {
  startTestHttpsServer,
  type TestHttpsServer,
} from '../../egress/test-support/test-https-server.js';
import { createEgressConnectionBudget } from './egress-connection-budget.js';
import {
  createSandboxEgressProxy,
  type SandboxEgressDecision,
  type SandboxEgressGate,
  type SandboxEgressProxy,
  type SandboxEgressProxyOptions,
} from './egress-proxy.js';

// Issue 34: idle connections each held a host descriptor, without limit. Real listeners on
// 127.0.0.1, one per sandbox gate, as `createSandbox` serves one per spawn.
describe('the sandbox egress proxy connection caps', () => {
  let upstream: TestHttpsServer;
  let ca = '';
  const cleanups: Array<() => Promise<void>> = [];
  const clients: Socket[] = [];

  beforeAll(async () => {
    const certificate = createTestCertificate();
    ca = certificate.ca;
    upstream = await startTestHttpsServer(certificate);
  });
  afterAll(() => upstream.close());
  afterEach(async () => {
    for (const client of clients.splice(0)) client.destroy();
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  interface RunningProxy {
    readonly proxy: SandboxEgressProxy;
    readonly events: SandboxEgressDecision[];
    /** A listener of its own for one more sandbox, as each spawn gets. */
    listen(): Promise<{ readonly port: number; readonly gate: SandboxEgressGate }>;
  }

  async function startProxy(
    overrides: Partial<SandboxEgressProxyOptions> = {},
  ): Promise<RunningProxy> {
    const events: SandboxEgressDecision[] = [];
    const proxy = createSandboxEgressProxy({
      allowedDomains: ['egress.test'],
      lookup: mapLookup({ 'egress.test': ['127.0.0.1'] }),
      dangerouslyAllowRanges: ['127.0.0.0/8'],
      onDecision: (event) => events.push(event),
      ...overrides,
    });
    cleanups.push(() => proxy.close());
    const listen = async () => {
      const gate = proxy.openSandbox();
      const server = createServer({ allowHalfOpen: true }, (socket) =>
        gate.handleConnection(socket),
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      cleanups.unshift(async () => {
        gate.close();
        await new Promise((resolve) => server.close(resolve));
      });
      return { port: (server.address() as AddressInfo).port, gate };
    };
    return { proxy, events, listen };
  }

  async function openClients(port: number, count: number): Promise<Socket[]> {
    const opened = await Promise.all(
      Array.from({ length: count }, async () => {
        const socket = netConnect({ host: '127.0.0.1', port });
        socket.on('error', () => undefined);
        clients.push(socket);
        await once(socket, 'connect');
        return socket;
      }),
    );
    return opened;
  }

  /** Resolves once the proxy closed `socket`; rejects if it is still open after `withinMs`. */
  function closedWithin(socket: Socket, withinMs: number): Promise<void> {
    if (socket.closed) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('still open')), withinMs);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      // A refused socket only learns of the close by reading.
      socket.resume();
    });
  }

  const refusedIn = (events: readonly SandboxEgressDecision[]): number =>
    events
      .filter((event) => event.reason === 'connection_limit')
      .reduce((sum, event) => sum + (event.refusedConnections ?? 0), 0);

  it('closes a connection past the sandbox cap at once and reports it as connection_limit', async () => {
    const { events, listen } = await startProxy({ maxConnectionsPerSandbox: 4 });
    const { port, gate } = await listen();
    const held = await openClients(port, 4);
    await vi.waitFor(() => expect(gate.openConnections).toBe(4));

    const [extra] = await openClients(port, 1);

    await closedWithin(extra!, 2_000);
    expect(held.every((socket) => !socket.closed)).toBe(true);
    expect(gate.openConnections).toBe(4);
    expect(events).toEqual([
      {
        host: '',
        port: 0,
        outcome: 'denied',
        reason: 'connection_limit',
        connectionLimit: 'sandbox',
        refusedConnections: 1,
      },
    ]);
  });

  it('still serves a second sandbox, end to end, while the first holds its whole cap', async () => {
    const { listen } = await startProxy({ maxConnectionsPerSandbox: 4, maxConnections: 6 });
    const flooded = await listen();
    const other = await listen();
    const flood = await openClients(flooded.port, 20);
    // Settled: every flood connection is either held or already refused.
    await vi.waitFor(() =>
      expect(flooded.gate.openConnections + flood.filter((socket) => socket.closed).length).toBe(
        20,
      ),
    );
    for (const socket of flood) socket.resume();
    const agent = new ProxyAgent({ uri: `http://127.0.0.1:${other.port}`, requestTls: { ca } });

    // Bounded: a starved sandbox would otherwise wait for the flood's setup timeouts.
    const response = await undiciRequest(`https://egress.test:${upstream.port}/`, {
      dispatcher: agent,
      signal: AbortSignal.timeout(5_000),
    });
    const body = await response.body.text();
    await agent.close();

    expect(response.statusCode).toBe(200);
    expect(body).toBe('ok');
    expect(flooded.gate.openConnections).toBe(4);
  });

  it('refuses past the host total across sandboxes, naming the host cap', async () => {
    const { proxy, events, listen } = await startProxy({
      maxConnectionsPerSandbox: 4,
      maxConnections: 6,
    });
    const first = await listen();
    const second = await listen();
    await openClients(first.port, 4);
    await openClients(second.port, 2);
    await vi.waitFor(() => expect(proxy.connectionBudget.open).toBe(6));

    const [extra] = await openClients(second.port, 1);

    await closedWithin(extra!, 2_000);
    expect(second.gate.openConnections).toBe(2);
    expect(proxy.connectionBudget.open).toBe(6);
    expect(events).toContainEqual(
      expect.objectContaining({ reason: 'connection_limit', connectionLimit: 'host' }),
    );
  });

  it('shares one host total between proxies given the same budget', async () => {
    const connectionBudget = createEgressConnectionBudget(3);
    const one = await startProxy({ connectionBudget, maxConnectionsPerSandbox: 2 });
    const two = await startProxy({ connectionBudget, maxConnectionsPerSandbox: 2 });
    const a = await one.listen();
    const b = await two.listen();
    await openClients(a.port, 2);
    await openClients(b.port, 1);
    await vi.waitFor(() => expect(connectionBudget.open).toBe(3));

    const [extra] = await openClients(b.port, 1);

    await closedWithin(extra!, 2_000);
    expect(two.events).toContainEqual(
      expect.objectContaining({ reason: 'connection_limit', connectionLimit: 'host' }),
    );
  });

  it('sums a flood of refusals into a few events that still count every one', async () => {
    const { events, listen } = await startProxy({ maxConnectionsPerSandbox: 2 });
    const { port, gate } = await listen();
    await openClients(port, 2);
    await vi.waitFor(() => expect(gate.openConnections).toBe(2));

    const flood = await openClients(port, 300);
    await Promise.all(flood.map((socket) => closedWithin(socket, 5_000)));
    gate.close();

    expect(refusedIn(events)).toBe(300);
    // The first at once, then at most one summary a second: a handful, not 300.
    expect(events.length).toBeLessThanOrEqual(4);
  });

  it('gives every slot back exactly once, whichever way its connection ended', async () => {
    const { proxy, listen } = await startProxy({
      maxConnectionsPerSandbox: 3,
      maxConnections: 3,
      idleTimeoutMs: 300,
    });
    const { port, gate } = await listen();
    const agent = new ProxyAgent({ uri: `http://127.0.0.1:${port}`, requestTls: { ca } });
    const exchange = async (text: string): Promise<void> => {
      const [socket] = await openClients(port, 1);
      socket!.end(text);
      await closedWithin(socket!, 3_000);
    };

    // An allowed tunnel run to its end; a bad request; a denied host; a client gone silent until
    // the setup timeout; a client that hangs up; each one at a time through a cap of 3.
    const response = await undiciRequest(`https://egress.test:${upstream.port}/`, {
      dispatcher: agent,
    });
    await response.body.text();
    await agent.close();
    await exchange('GARBAGE\r\n\r\n');
    await exchange('CONNECT evil.example.net:443 HTTP/1.1\r\n\r\n');
    const [silent] = await openClients(port, 1);
    await closedWithin(silent!, 3_000);
    const [hangUp] = await openClients(port, 1);
    hangUp!.destroy();
    await vi.waitFor(() => expect(proxy.connectionBudget.open).toBe(0));
    expect(gate.openConnections).toBe(0);

    // A leak would refuse sooner, a double give would admit a fourth.
    const again = await openClients(port, 4);
    await vi.waitFor(() => expect(gate.openConnections).toBe(3));
    await vi.waitFor(() => expect(again.filter((socket) => socket.closed)).toHaveLength(1));
    expect(proxy.connectionBudget.open).toBe(3);
  });

  it('frees the slots of connections the proxy closes itself', async () => {
    const { proxy, listen } = await startProxy({ maxConnectionsPerSandbox: 5 });
    const { port, gate } = await listen();
    await openClients(port, 5);
    await vi.waitFor(() => expect(gate.openConnections).toBe(5));

    await proxy.close();

    await vi.waitFor(() => expect(proxy.connectionBudget.open).toBe(0));
    expect(gate.openConnections).toBe(0);
  });

  it.each([
    ['zero', 0],
    ['negative', -1],
    ['fractional', 1.5],
    ['NaN', Number.NaN],
    ['infinite', Number.POSITIVE_INFINITY],
    ['a string', '8'],
  ])('refuses a %s cap at creation', (_case, value) => {
    for (const name of ['maxConnectionsPerSandbox', 'maxConnections'] as const) {
      const create = () =>
        createSandboxEgressProxy({ allowedDomains: ['egress.test'], [name]: value as number });

      expect(create).toThrow(
        new TypeError(`toolhost: sandbox egress ${name} must be a positive integer`),
      );
    }
  });

  it('refuses a sandbox cap above the host total, and a total given twice', () => {
    expect(() =>
      createSandboxEgressProxy({
        allowedDomains: [],
        maxConnectionsPerSandbox: 10,
        maxConnections: 5,
      }),
    ).toThrow(/maxConnectionsPerSandbox must not exceed maxConnections/);
    expect(() =>
      createSandboxEgressProxy({
        allowedDomains: [],
        maxConnections: 5,
        connectionBudget: createEgressConnectionBudget(5),
      }),
    ).toThrow(/not both/);
  });

  it('defaults to 256 per sandbox within 1 024 in total, the sandbox cap no higher than the total', () => {
    const wide = createSandboxEgressProxy({ allowedDomains: [] });
    const narrow = createSandboxEgressProxy({ allowedDomains: [], maxConnections: 100 });

    expect(wide.openSandbox().maxConnections).toBe(256);
    expect(wide.connectionBudget.maxConnections).toBe(1024);
    expect(narrow.openSandbox().maxConnections).toBe(100);
    expect(narrow.connectionBudget.maxConnections).toBe(100);
  });
});
