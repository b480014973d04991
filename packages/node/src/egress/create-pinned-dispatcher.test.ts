import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createPinnedDispatcher } from './create-pinned-dispatcher.js';
import { createTestCertificate, type TestCertificate } from './test-support/test-certificate.js';

// No dial seam here: the default path (net.connect to the IP, TLS on top) against real sockets,
// because a pinned lookup answering in the wrong callback format only fails for real.
describe('createPinnedDispatcher', () => {
  let certificate: TestCertificate;
  const servers: Server[] = [];

  beforeAll(() => {
    certificate = createTestCertificate();
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  async function listen(host: string): Promise<number | undefined> {
    const server = createServer(
      { key: certificate.key, cert: certificate.cert },
      (request, response) => {
        const socket = request.socket as unknown as { servername?: unknown };
        response.end(`${String(socket.servername)} ${request.headers.host ?? ''}`);
      },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, host, resolve);
      });
    } catch {
      return undefined;
    }
    servers.push(server);
    return (server.address() as AddressInfo).port;
  }

  it('dials the pinned IPv4 address and names the host in SNI and Host', async () => {
    const port = (await listen('127.0.0.1')) as number;
    const pool = createPinnedDispatcher({
      destination: {
        hostname: 'egress.test',
        port,
        addresses: [{ address: '127.0.0.1', family: 4 }],
      },
      ca: certificate.ca,
    });

    const response = await pool.request({ path: '/', method: 'GET' });

    expect(await response.body.text()).toBe(`egress.test egress.test:${port}`);
    await pool.close();
  });

  it('dials a pinned IPv6 address', async (context) => {
    const port = await listen('::1');
    if (port === undefined) context.skip();
    const pool = createPinnedDispatcher({
      destination: {
        hostname: 'egress.test',
        port: port as number,
        addresses: [{ address: '::1', family: 6 }],
      },
      ca: certificate.ca,
    });

    const response = await pool.request({ path: '/', method: 'GET' });

    expect(response.statusCode).toBe(200);
    await response.body.dump();
    await pool.close();
  });

  it('sends no SNI for an IP-literal URL and checks the certificate against the IP', async () => {
    const port = (await listen('127.0.0.1')) as number;
    const pool = createPinnedDispatcher({
      destination: {
        hostname: '127.0.0.1',
        port,
        addresses: [{ address: '127.0.0.1', family: 4 }],
      },
      ca: certificate.ca,
    });

    const response = await pool.request({ path: '/', method: 'GET' });

    expect(await response.body.text()).toBe(`false 127.0.0.1:${port}`);
    await pool.close();
  });

  it('fails the handshake when the certificate does not name the host', async () => {
    const port = (await listen('127.0.0.1')) as number;
    const pool = createPinnedDispatcher({
      destination: {
        hostname: 'not-in-cert.test',
        port,
        addresses: [{ address: '127.0.0.1', family: 4 }],
      },
      ca: certificate.ca,
    });

    const attempt = pool.request({ path: '/', method: 'GET' });

    await expect(attempt).rejects.toMatchObject({ code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
    await pool.close();
  });

  it('refuses a chain that no trusted CA signed', async () => {
    const port = (await listen('127.0.0.1')) as number;
    const pool = createPinnedDispatcher({
      destination: {
        hostname: 'egress.test',
        port,
        addresses: [{ address: '127.0.0.1', family: 4 }],
      },
    });

    const attempt = pool.request({ path: '/', method: 'GET' });

    await expect(attempt).rejects.toMatchObject({
      code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    });
    await pool.close();
  });
});
