import { once } from 'node:events';
import {
  connect as netConnect,
  createServer,
  type AddressInfo,
  type Server,
  type Socket,
} from 'node:net';
import { Duplex } from 'node:stream';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';

import { ProxyAgent, request as undiciRequest } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import type { DialTarget } from '../../egress/create-pinned-dispatcher.js';
import { mapLookup, type DnsTable } from '../../egress/test-support/map-lookup.js';
import {
  createTestCertificate,
  type TestCertificate,
} from '../../egress/test-support/test-certificate.js';
import {
  startTestHttpsServer,
  type TestHttpsServer,
} from '../../egress/test-support/test-https-server.js';
import {
  createSandboxEgressProxy,
  type SandboxEgressDecision,
  type SandboxEgressProxy,
  type SandboxEgressProxyOptions,
} from './egress-proxy.js';

const PUBLIC = '93.184.215.14';
const ESTABLISHED = 'HTTP/1.1 200 Connection Established';

interface RunningProxy {
  readonly port: number;
  readonly proxy: SandboxEgressProxy;
  readonly events: SandboxEgressDecision[];
  readonly lookup: ReturnType<typeof mapLookup>;
}

describe('createSandboxEgressProxy on 127.0.0.1', () => {
  let certificate: TestCertificate;
  let upstream: TestHttpsServer;
  // TCP connections the upstream accepted, TLS or not: "saw nothing" means this stays 0.
  let upstreamConnections = 0;
  const running: Array<{ readonly server: Server; readonly proxy: SandboxEgressProxy }> = [];
  const clients: Socket[] = [];

  beforeAll(async () => {
    certificate = createTestCertificate();
    upstream = await startTestHttpsServer(certificate);
    upstream.server.on('connection', () => {
      upstreamConnections += 1;
    });
  });
  afterAll(() => upstream.close());
  afterEach(async () => {
    for (const client of clients.splice(0)) client.destroy();
    await Promise.all(
      running.splice(0).map(async ({ server, proxy }) => {
        await proxy.close();
        await new Promise((resolve) => server.close(resolve));
      }),
    );
    upstream.handler = (_request, response) => response.end('ok');
    upstream.server.closeAllConnections();
    upstreamConnections = 0;
  });

  /** A proxy behind a real listener, allowing `egress.test` (→ 127.0.0.1, loopback exempted). */
  async function startProxy(
    overrides: Partial<SandboxEgressProxyOptions> = {},
    dns: DnsTable = { 'egress.test': ['127.0.0.1'], 'evil.example.net': ['127.0.0.1'] },
  ): Promise<RunningProxy> {
    const events: SandboxEgressDecision[] = [];
    const lookup = mapLookup(dns);
    const proxy = createSandboxEgressProxy({
      allowedDomains: ['egress.test'],
      lookup,
      dangerouslyAllowRanges: ['127.0.0.0/8'],
      onDecision: (event) => events.push(event),
      ...overrides,
    });
    const server = createServer((socket) => proxy.handleConnection(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    running.push({ server, proxy });
    return { port: (server.address() as AddressInfo).port, proxy, events, lookup };
  }

  async function openClient(port: number): Promise<Socket> {
    const socket = netConnect({ host: '127.0.0.1', port });
    socket.on('error', () => undefined);
    clients.push(socket);
    await once(socket, 'connect');
    return socket;
  }

  /** Sends `text` and collects everything the proxy answers until it closes the connection. */
  async function exchange(port: number, text: string | Buffer): Promise<string> {
    const socket = await openClient(port);
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.write(text);
    await once(socket, 'close');
    return Buffer.concat(received).toString('latin1');
  }

  /** Sends a CONNECT and reads the status line; the socket is left paused on the tunnel. */
  async function openTunnel(
    port: number,
    authority: string,
  ): Promise<{ socket: Socket; status: string }> {
    const socket = await openClient(port);
    socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);
    let head = Buffer.alloc(0);
    while (!head.includes('\r\n\r\n')) {
      const chunk = socket.read() as Buffer | null;
      if (chunk === null) {
        await Promise.race([once(socket, 'readable'), once(socket, 'close')]);
        if (socket.destroyed) break;
        continue;
      }
      head = Buffer.concat([head, chunk]);
    }
    return { socket, status: head.toString('latin1').split('\r\n')[0] ?? '' };
  }

  function startTls(transport: Duplex, servername: string): Promise<TLSSocket> {
    return new Promise((resolve, reject) => {
      const tls = tlsConnect({ socket: transport, servername, ca: certificate.ca });
      tls.once('secureConnect', () => resolve(tls));
      tls.once('error', reject);
      tls.once('close', () => reject(new Error('closed before the handshake')));
    });
  }

  /** One HTTP/1.1 request over an established TLS tunnel; the raw response up to close. */
  async function get(tls: TLSSocket, path = '/'): Promise<string> {
    const received: Buffer[] = [];
    tls.on('data', (chunk: Buffer) => received.push(chunk));
    tls.on('error', () => undefined);
    tls.write(`GET ${path} HTTP/1.1\r\nHost: egress.test\r\nConnection: close\r\n\r\n`);
    await once(tls, 'close');
    return Buffer.concat(received).toString('latin1');
  }

  const authority = (host = 'egress.test'): string => `${host}:${upstream.port}`;

  describe('an allowed host', () => {
    it('relays a real proxy client to the server and reports the tunnel when it ends', async () => {
      const { port, events } = await startProxy();
      const agent = new ProxyAgent({
        uri: `http://127.0.0.1:${port}`,
        requestTls: { ca: certificate.ca },
      });

      const response = await undiciRequest(`https://${authority()}/hello`, { dispatcher: agent });
      const body = await response.body.text();
      await agent.close();

      expect(response.statusCode).toBe(200);
      expect(body).toBe('ok');
      expect(upstream.seen[0]?.headers.host).toBe(authority());
      await vi.waitFor(() => expect(events).toHaveLength(1));
      expect(events[0]).toEqual({
        host: 'egress.test',
        port: upstream.port,
        outcome: 'allowed',
        bytesUp: expect.any(Number),
        bytesDown: expect.any(Number),
        durationMs: expect.any(Number),
      });
      expect(events[0]?.bytesUp).toBeGreaterThan(200);
      expect(events[0]?.bytesDown).toBeGreaterThan(200);
    });

    it('dials only the address it checked, resolving the name once', async () => {
      const dials: DialTarget[] = [];
      const { port, lookup } = await startProxy(
        { dialTcp: upstream.dialToHere(dials), dangerouslyAllowRanges: [] },
        { 'egress.test': [PUBLIC] },
      );
      const { socket, status } = await openTunnel(port, authority());

      const tls = await startTls(socket, 'egress.test');
      const response = await get(tls);

      expect(status).toBe(ESTABLISHED);
      expect(response).toMatch(/^HTTP\/1\.1 200 OK/);
      expect(dials).toEqual([
        { address: PUBLIC, family: 4, port: upstream.port, servername: 'egress.test' },
      ]);
      expect(lookup.calls).toEqual(['egress.test']);
    });

    it('falls through to the next checked address when one refuses the connection', async () => {
      const dead = createServer();
      await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
      const deadPort = (dead.address() as AddressInfo).port;
      await new Promise((resolve) => dead.close(resolve));
      const dials: DialTarget[] = [];
      const { port } = await startProxy(
        {
          dialTcp: (target) => {
            dials.push(target);
            const to = target.address === '127.0.0.2' ? deadPort : upstream.port;
            return netConnect({ host: '127.0.0.1', port: to });
          },
        },
        { 'egress.test': ['127.0.0.2', '127.0.0.1'] },
      );
      const { socket } = await openTunnel(port, authority());

      const response = await get(await startTls(socket, 'egress.test'));

      expect(response).toMatch(/^HTTP\/1\.1 200 OK/);
      expect(dials.map(({ address }) => address)).toEqual(['127.0.0.2', '127.0.0.1']);
    });

    it('reassembles a ClientHello that arrives in several pieces', async () => {
      const { port, events } = await startProxy();
      const { socket } = await openTunnel(port, authority());
      socket.setNoDelay(true);

      const response = await get(await startTls(splitFirstWrite(socket, [3, 40]), 'egress.test'));

      expect(response).toMatch(/^HTTP\/1\.1 200 OK/);
      await vi.waitFor(() => expect(events).toMatchObject([{ outcome: 'allowed' }]));
    });

    it('matches the SNI case-insensitively against the CONNECT host', async () => {
      const { port } = await startProxy();
      const { socket } = await openTunnel(port, authority('EGRESS.test'));

      const response = await get(await startTls(socket, 'egress.TEST'));

      expect(response).toMatch(/^HTTP\/1\.1 200 OK/);
    });

    it('reports a network failure when no checked address accepts', async () => {
      const dead = createServer();
      await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
      const deadPort = (dead.address() as AddressInfo).port;
      await new Promise((resolve) => dead.close(resolve));
      const { port, events } = await startProxy();
      const { socket, status } = await openTunnel(port, `egress.test:${deadPort}`);

      const handshake = startTls(socket, 'egress.test');

      expect(status).toBe(ESTABLISHED);
      await expect(handshake).rejects.toThrow();
      await vi.waitFor(() => expect(events).toHaveLength(1));
      expect(events[0]).toMatchObject({ outcome: 'allowed', reason: 'network', bytesDown: 0 });
    });
  });

  describe('denials before the tunnel', () => {
    it('answers 403 for a host outside the allowlist, without DNS or an upstream connection', async () => {
      const { port, events, lookup } = await startProxy();

      const { status } = await openTunnel(port, authority('evil.example.net'));

      expect(status).toBe('HTTP/1.1 403 Forbidden');
      expect(events).toEqual([
        {
          host: 'evil.example.net',
          port: upstream.port,
          outcome: 'denied',
          reason: 'domain_not_allowed',
        },
      ]);
      expect(lookup.calls).toEqual([]);
      expect(upstreamConnections).toBe(0);
    });

    it('denies everything with an empty allowlist', async () => {
      const { port, events } = await startProxy({ allowedDomains: [] });

      const { status } = await openTunnel(port, authority());

      expect(status).toBe('HTTP/1.1 403 Forbidden');
      expect(events).toMatchObject([{ reason: 'domain_not_allowed' }]);
    });

    it('answers 403 ssrf_blocked when the allowed name resolves to loopback without an exemption', async () => {
      const { port, events } = await startProxy({ dangerouslyAllowRanges: [] });

      const { status } = await openTunnel(port, authority());

      expect(status).toBe('HTTP/1.1 403 Forbidden');
      expect(events).toMatchObject([
        { host: 'egress.test', outcome: 'denied', reason: 'ssrf_blocked' },
      ]);
      expect(upstreamConnections).toBe(0);
    });

    it('refuses a name answering one public and one private address', async () => {
      const dials: DialTarget[] = [];
      const { port, events } = await startProxy(
        { dialTcp: upstream.dialToHere(dials), dangerouslyAllowRanges: [] },
        { 'egress.test': [PUBLIC, '10.0.0.7'] },
      );

      const { status } = await openTunnel(port, authority());

      expect(status).toBe('HTTP/1.1 403 Forbidden');
      expect(events).toMatchObject([{ reason: 'ssrf_blocked' }]);
      expect(dials).toEqual([]);
      expect(upstreamConnections).toBe(0);
    });

    it('refuses an allowlisted name the SSRF floor blocks by name', async () => {
      const { port, events, lookup } = await startProxy({
        allowedDomains: ['metadata.google.internal'],
      });

      const { status } = await openTunnel(port, 'metadata.google.internal:443');

      expect(status).toBe('HTTP/1.1 403 Forbidden');
      expect(events).toMatchObject([{ reason: 'ssrf_blocked' }]);
      expect(lookup.calls).toEqual([]);
    });

    it('answers 502 not_found for an allowed name DNS does not know', async () => {
      const { port, events } = await startProxy({
        allowedDomains: ['egress.test', 'missing.test'],
      });

      const { status } = await openTunnel(port, authority('missing.test'));

      expect(status).toBe('HTTP/1.1 502 Bad Gateway');
      expect(events).toMatchObject([{ host: 'missing.test', reason: 'not_found' }]);
    });

    it('denies an IP-literal target that is not itself in the allowlist', async () => {
      const { port, events } = await startProxy();

      const { status } = await openTunnel(port, authority('127.0.0.1'));

      expect(status).toBe('HTTP/1.1 403 Forbidden');
      expect(events).toMatchObject([{ host: '127.0.0.1', reason: 'domain_not_allowed' }]);
      expect(upstreamConnections).toBe(0);
    });

    it('holds an allowlisted IP literal to the SSRF floor', async () => {
      const { port, events } = await startProxy({
        allowedDomains: ['127.0.0.1'],
        dangerouslyAllowRanges: [],
      });

      const { status } = await openTunnel(port, authority('0x7f.1'));

      expect(status).toBe('HTTP/1.1 403 Forbidden');
      expect(events).toMatchObject([{ host: '127.0.0.1', reason: 'ssrf_blocked' }]);
    });

    it('answers 403 insecure_url to a plain-HTTP absolute-form request', async () => {
      const { port, events, lookup } = await startProxy();

      const response = await exchange(
        port,
        'GET http://egress.test/ HTTP/1.1\r\nHost: egress.test\r\n\r\n',
      );

      expect(response).toBe(
        'HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
      );
      expect(events).toEqual([
        { host: 'egress.test', port: 80, outcome: 'denied', reason: 'insecure_url' },
      ]);
      expect(lookup.calls).toEqual([]);
      expect(upstreamConnections).toBe(0);
    });

    it.each([
      ['bare LF line ends', 'CONNECT egress.test:443 HTTP/1.1\nHost: x\n\n'],
      ['obs-fold', 'CONNECT egress.test:443 HTTP/1.1\r\nA: b\r\n c\r\n\r\n'],
      ['a missing port', 'CONNECT egress.test HTTP/1.1\r\n\r\n'],
      ['an origin-form request', 'GET / HTTP/1.1\r\nHost: egress.test\r\n\r\n'],
      ['an oversized head', `CONNECT egress.test:443 HTTP/1.1\r\nX: ${'a'.repeat(9000)}\r\n\r\n`],
    ])('answers 400 to %s', async (_case, text) => {
      const { port, events } = await startProxy();

      const response = await exchange(port, text);

      expect(response).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(events).toEqual([{ host: '', port: 0, outcome: 'denied', reason: 'bad_request' }]);
      expect(upstreamConnections).toBe(0);
    });

    it('times out a client that never finishes its request head', async () => {
      const { port, events } = await startProxy({ idleTimeoutMs: 200 });
      const socket = await openClient(port);

      socket.write('CONNECT egress.test:');
      await once(socket, 'close');

      // The client can see its socket close before the proxy's own close event is handled.
      await vi.waitFor(() =>
        expect(events).toEqual([{ host: '', port: 0, outcome: 'denied', reason: 'timeout' }]),
      );
    });
  });

  describe('the ClientHello check', () => {
    it('closes the tunnel when the SNI names another host, before any upstream connection', async () => {
      const { port, events } = await startProxy();
      const { socket, status } = await openTunnel(port, authority());

      const handshake = startTls(socket, 'evil.example.net');

      expect(status).toBe(ESTABLISHED);
      await expect(handshake).rejects.toThrow();
      expect(events).toEqual([
        { host: 'egress.test', port: upstream.port, outcome: 'denied', reason: 'sni_mismatch' },
      ]);
      expect(upstreamConnections).toBe(0);
    });

    it('closes the tunnel when the ClientHello has no SNI', async () => {
      const { port, events } = await startProxy();
      const { socket } = await openTunnel(port, authority());

      await expect(startTls(socket, '')).rejects.toThrow();

      expect(events).toMatchObject([{ reason: 'sni_mismatch' }]);
      expect(upstreamConnections).toBe(0);
    });

    it('checks a ClientHello sent together with the CONNECT head', async () => {
      const { port, events } = await startProxy();
      const hello = await captureClientHello('evil.example.net');

      const response = await exchange(
        port,
        Buffer.concat([Buffer.from(`CONNECT ${authority()} HTTP/1.1\r\n\r\n`), hello]),
      );

      expect(response).toBe(`${ESTABLISHED}\r\n\r\n`);
      expect(events).toMatchObject([{ reason: 'sni_mismatch' }]);
      expect(upstreamConnections).toBe(0);
    });

    it('closes the tunnel when the first bytes are not TLS', async () => {
      const { port, events } = await startProxy();
      const { socket } = await openTunnel(port, authority());

      socket.write('GET / HTTP/1.1\r\nHost: egress.test\r\n\r\n');
      socket.resume();
      await once(socket, 'close');

      expect(events).toMatchObject([{ host: 'egress.test', outcome: 'denied', reason: 'not_tls' }]);
      expect(upstreamConnections).toBe(0);
    });

    it('times out a tunnel whose ClientHello never completes', async () => {
      const { port, events } = await startProxy({ idleTimeoutMs: 200 });
      const { socket } = await openTunnel(port, authority());

      socket.write(Buffer.from([22, 3, 1, 0, 200, 1]));
      socket.resume();
      await once(socket, 'close');

      await vi.waitFor(() =>
        expect(events).toMatchObject([{ outcome: 'denied', reason: 'timeout' }]),
      );
      expect(upstreamConnections).toBe(0);
    });
  });

  describe('limits on an open tunnel', () => {
    it('destroys a tunnel at the byte cap and reports it', async () => {
      upstream.handler = (_request, response) => response.end(Buffer.alloc(256 * 1024, 'x'));
      const { port, events } = await startProxy({ maxBytesPerConnection: 16 * 1024 });
      const { socket } = await openTunnel(port, authority());

      const response = await get(await startTls(socket, 'egress.test'));

      expect(response.length).toBeLessThan(16 * 1024);
      await vi.waitFor(() => expect(events).toHaveLength(1));
      expect(events[0]).toMatchObject({ outcome: 'allowed', reason: 'byte_cap' });
      expect(events[0]?.bytesDown).toBeLessThanOrEqual(16 * 1024);
    });

    it('destroys a silent tunnel at the idle timeout', async () => {
      const { port, events } = await startProxy({ idleTimeoutMs: 500 });
      const { socket } = await openTunnel(port, authority());
      const tls = await startTls(socket, 'egress.test');
      tls.on('error', () => undefined);

      await once(tls, 'close');

      await vi.waitFor(() => expect(events).toHaveLength(1));
      expect(events[0]).toMatchObject({ outcome: 'allowed', reason: 'timeout' });
      expect(events[0]?.durationMs).toBeGreaterThanOrEqual(500);
    });

    it('destroys a tunnel at its total lifetime', async () => {
      const { port, events } = await startProxy({ maxConnectionMs: 600 });
      const { socket } = await openTunnel(port, authority());
      const tls = await startTls(socket, 'egress.test');
      tls.on('error', () => undefined);

      await once(tls, 'close');

      await vi.waitFor(() => expect(events).toHaveLength(1));
      expect(events[0]).toMatchObject({ outcome: 'allowed', reason: 'timeout' });
      expect(events[0]?.durationMs).toBeLessThan(10_000);
    });

    it('close() ends an open tunnel and refuses later connections', async () => {
      const { port, events, proxy } = await startProxy();
      const { socket } = await openTunnel(port, authority());
      const tls = await startTls(socket, 'egress.test');
      tls.on('error', () => undefined);
      const ended = once(tls, 'close');

      await proxy.close();
      await ended;
      const late = await exchange(port, `CONNECT ${authority()} HTTP/1.1\r\n\r\n`);

      expect(late).toBe('');
      expect(events).toMatchObject([{ outcome: 'allowed', host: 'egress.test' }]);
      expect(events[0]?.reason).toBeUndefined();
      await proxy.close();
    });
  });

  it('keeps serving when the decision observer throws', async () => {
    const { port } = await startProxy({
      onDecision: () => {
        throw new Error('observer failed');
      },
    });

    const denied = await openTunnel(port, authority('evil.example.net'));
    const allowed = await openTunnel(port, authority());
    const response = await get(await startTls(allowed.socket, 'egress.test'));

    expect(denied.status).toBe('HTTP/1.1 403 Forbidden');
    expect(response).toMatch(/^HTTP\/1\.1 200 OK/);
  });

  it('refuses invalid options at creation', () => {
    expect(() =>
      createSandboxEgressProxy({ allowedDomains: [], maxBytesPerConnection: 0 }),
    ).toThrow(TypeError);
    expect(() => createSandboxEgressProxy({ allowedDomains: [], idleTimeoutMs: -1 })).toThrow(
      TypeError,
    );
    expect(() =>
      createSandboxEgressProxy({ allowedDomains: [], dangerouslyAllowRanges: ['x'] }),
    ).toThrow(TypeError);
  });
});

/** A transport whose first write (the ClientHello) reaches the socket in separate pieces. */
function splitFirstWrite(socket: Socket, cuts: readonly number[]): Duplex {
  let first = true;
  const transport = new Duplex({
    read() {
      socket.resume();
    },
    write(chunk: Buffer, _encoding, callback) {
      if (!first) {
        socket.write(chunk, callback);
        return;
      }
      first = false;
      const pieces = [0, ...cuts, chunk.length]
        .slice(1)
        .map((end, index, ends) =>
          chunk.subarray(index === 0 ? 0 : (ends[index - 1] as number), end),
        );
      void (async () => {
        for (const piece of pieces) {
          socket.write(piece);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        callback();
      })();
    },
    final(callback) {
      socket.end();
      callback();
    },
  });
  socket.on('data', (chunk: Buffer) => {
    if (!transport.push(chunk)) socket.pause();
  });
  socket.on('end', () => transport.push(null));
  socket.on('close', () => transport.destroy());
  socket.resume();
  return transport;
}

/** The ClientHello Node's TLS client writes for `servername`, captured without a socket. */
function captureClientHello(servername: string): Promise<Buffer> {
  return new Promise((resolve) => {
    const transport = new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, callback) {
        resolve(chunk);
        callback();
        setImmediate(() => client.destroy());
      },
    });
    const client = tlsConnect({ socket: transport, servername });
    client.on('error', () => undefined);
  });
}
