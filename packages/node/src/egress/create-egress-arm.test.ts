import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { connect, type Socket } from 'node:net';

import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';

import { ToolCancelledError } from '@toolhost/core';
import type { DurableMediaPart, EgressRequest } from '@toolhost/core/host';

import { createEgressArm, type EgressArm } from './create-egress-arm.js';
import type { DialTarget } from './create-pinned-dispatcher.js';
import type { EgressOptions } from './resolve-egress-options.js';
import { mapLookup } from './test-support/map-lookup.js';
import { createTestCertificate, type TestCertificate } from './test-support/test-certificate.js';
import { startTestHttpsServer, type TestHttpsServer } from './test-support/test-https-server.js';

const LOOPBACK_ONLY = ['127.0.0.1/32'];

describe('createEgressArm against a real HTTPS server on 127.0.0.1', () => {
  let certificate: TestCertificate;
  let server: TestHttpsServer;
  const arms: EgressArm[] = [];

  beforeAll(async () => {
    certificate = createTestCertificate();
    server = await startTestHttpsServer(certificate);
  });
  afterAll(() => server.close());
  afterEach(async () => {
    await Promise.all(arms.splice(0).map((arm) => arm.close()));
    server.seen.length = 0;
    server.handler = (_request, response) => response.end('ok');
  });

  /** An arm that reaches the test server as `egress.test` through the construction-time seam. */
  function localArm(overrides: EgressOptions = {}): EgressArm {
    const arm = createEgressArm({
      lookup: mapLookup({ 'egress.test': ['127.0.0.1'], 'other.test': ['127.0.0.1'] }),
      dangerouslyAllowRanges: LOOPBACK_ONLY,
      ca: certificate.ca,
      ...overrides,
    });
    arms.push(arm);
    return arm;
  }

  const get = (path = '/', extra: Partial<EgressRequest> = {}): EgressRequest => ({
    method: 'GET',
    url: `https://egress.test:${server.port}${path}`,
    headers: {},
    ...extra,
  });

  it('settles a cancelled call only once its DNS lookup ended: the work is the call’s until then', async () => {
    let lookupEnded = 0;
    const arm = localArm({
      lookup: async () => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        lookupEnded = performance.now();
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    const controller = new AbortController();

    const call = arm.fetch(get(), controller.signal);
    setTimeout(() => controller.abort(new Error('stop')), 30);
    const error = await call.catch((caught: unknown) => caught);
    const settled = performance.now();

    expect(error).toMatchObject({ code: 'cancelled' });
    expect(lookupEnded).toBeGreaterThan(0);
    expect(settled).toBeGreaterThanOrEqual(lookupEnded);
    expect(server.seen).toHaveLength(0);
  });

  describe('the SSRF floor and pinning', () => {
    it('blocks loopback by default, even with the right certificate', async () => {
      const arm = localArm({ dangerouslyAllowRanges: [] });

      const attempt = arm.fetch(get());

      await expect(attempt).rejects.toMatchObject({ code: 'tool_denied', reason: 'ssrf_blocked' });
      expect(server.seen).toHaveLength(0);
    });

    it('blocks an IP-literal loopback URL by default', async () => {
      const arm = localArm({ dangerouslyAllowRanges: [] });

      const attempt = arm.fetch({ ...get(), url: `https://127.0.0.1:${server.port}/` });

      await expect(attempt).rejects.toMatchObject({ reason: 'ssrf_blocked' });
      expect(server.seen).toHaveLength(0);
    });

    it('reaches the server through lookup + dangerouslyAllowRanges + the test CA (no dial seam)', async () => {
      const arm = localArm();

      const response = await arm.fetch(get('/hello?x=1'));

      expect(response).toMatchObject({ status: 200, body: 'ok' });
      expect(response.url).toBe(`https://egress.test:${server.port}/hello?x=1`);
      expect(server.seen[0]?.url).toBe('/hello?x=1');
      expect(server.seen[0]?.headers.host).toBe(`egress.test:${server.port}`);
    });

    it('sends SNI for the hostname, not the pinned IP', async () => {
      let servername: unknown;
      server.handler = (request, response) => {
        servername = (request.socket as unknown as { servername?: unknown }).servername;
        response.end('ok');
      };
      const arm = localArm();

      await arm.fetch(get());

      expect(servername).toBe('egress.test');
    });

    it('verifies the certificate against the hostname', async () => {
      const arm = localArm();

      const attempt = arm.fetch({ ...get(), url: `https://other.test:${server.port}/` });

      await expect(attempt).rejects.toMatchObject({ code: 'tool_failed', reason: 'tls' });
      expect(server.seen).toHaveLength(0);
    });

    it('refuses a certificate from an untrusted CA', async () => {
      const arm = localArm({ ca: [] });

      const attempt = arm.fetch(get());

      await expect(attempt).rejects.toMatchObject({ reason: 'tls' });
    });

    it('reuses pinned connections across calls', async () => {
      const arm = localArm();
      const before = server.connections();

      for (let call = 0; call < 6; call += 1) await arm.fetch(get(`/${call}`));

      expect(server.connections() - before).toBeLessThan(6);
    });

    it('dials the validated IP, and a rebound answer on the next call is refused', async () => {
      const dials: DialTarget[] = [];
      const lookup = mapLookup({ 'egress.test': [['93.184.215.14'], ['127.0.0.1']] });
      const arm = localArm({
        lookup,
        dangerouslyAllowRanges: [],
        dialTcp: server.dialToHere(dials),
      });

      const first = await arm.fetch(get());
      const second = arm.fetch(get());

      expect(first.status).toBe(200);
      await expect(second).rejects.toMatchObject({ reason: 'ssrf_blocked' });
      expect(dials).toEqual([
        { address: '93.184.215.14', family: 4, port: server.port, servername: 'egress.test' },
      ]);
    });

    it('refuses a name with one public and one private answer without dialling', async () => {
      const dials: DialTarget[] = [];
      const lookup = mapLookup({ 'egress.test': ['93.184.215.14', '10.0.0.7'] });
      const arm = localArm({
        lookup,
        dangerouslyAllowRanges: [],
        dialTcp: server.dialToHere(dials),
      });

      const attempt = arm.fetch(get());

      await expect(attempt).rejects.toMatchObject({ reason: 'ssrf_blocked' });
      expect(dials).toEqual([]);
    });

    it('falls through to the next validated address when the first refuses TCP', async () => {
      const dials: DialTarget[] = [];
      const lookup = mapLookup({ 'egress.test': ['93.184.215.14', '93.184.215.15'] });
      const here = server.dialToHere(dials);
      const arm = localArm({
        lookup,
        dangerouslyAllowRanges: [],
        dialTcp: (target) => {
          if (target.address !== '93.184.215.14') return here(target);
          dials.push(target);
          // Port 1 on loopback refuses the connection, like a dead first address would.
          return connect({ host: '127.0.0.1', port: 1 });
        },
      });

      const response = await arm.fetch(get());

      expect(response.status).toBe(200);
      expect(dials.map(({ address }) => address)).toEqual(['93.184.215.14', '93.184.215.15']);
    });
  });

  describe('headers and credentials', () => {
    it('drops hop-by-hop and spoofing headers and keeps the rest', async () => {
      const arm = localArm();

      await arm.fetch(
        get('/', {
          headers: { 'X-Forwarded-For': '10.0.0.1', Host: 'evil.test', Accept: 'text/plain' },
        }),
      );

      const headers = server.seen[0]?.headers;
      expect(headers?.['x-forwarded-for']).toBeUndefined();
      expect(headers?.host).toBe(`egress.test:${server.port}`);
      expect(headers?.accept).toBe('text/plain');
    });

    it('refuses a header value with CR LF before any connection', async () => {
      const arm = localArm();

      const attempt = arm.fetch(get('/', { headers: { 'x-a': 'v\r\nx-b: injected' } }));

      await expect(attempt).rejects.toMatchObject({ reason: 'header_not_allowed' });
      expect(server.seen).toHaveLength(0);
    });

    it('attaches a credentialRef as Bearer authorization, replacing the model-supplied one', async () => {
      process.env.TOOLHOST_EGRESS_TEST_KEY = 'sk-test-credential-1234';
      const arm = localArm();

      await arm.fetch(
        get('/', {
          headers: { Authorization: 'Bearer model-chosen' },
          credentialRef: 'env:TOOLHOST_EGRESS_TEST_KEY',
        }),
      );

      expect(server.seen[0]?.headers.authorization).toBe('Bearer sk-test-credential-1234');
    });

    it('sends the raw secret on a configured credentialHeader', async () => {
      const arm = localArm({ resolveCredential: () => 'brave-key-5678' });

      await arm.fetch(
        get('/', { credentialRef: 'brave', credentialHeader: 'X-Subscription-Token' }),
      );

      expect(server.seen[0]?.headers['x-subscription-token']).toBe('brave-key-5678');
      expect(server.seen[0]?.headers.authorization).toBeUndefined();
    });

    it('keeps the secret out of the body, the headers and set-cookie of the result', async () => {
      server.handler = (request, response) => {
        response.setHeader('set-cookie', 'session=abc');
        response.setHeader('x-echo', String(request.headers.authorization));
        response.setHeader('x-safe', 'yes');
        response.end(`you sent ${String(request.headers.authorization)}`);
      };
      const arm = localArm({ resolveCredential: () => 'sk-echoed-secret-9999' });

      const response = await arm.fetch(get('/', { credentialRef: 'key' }));

      const serialized = JSON.stringify(response);
      expect(serialized).not.toContain('sk-echoed-secret-9999');
      expect(response.headers['set-cookie']).toBeUndefined();
      expect(response.headers['x-echo']).toBeUndefined();
      expect(response.headers['x-safe']).toBe('yes');
      expect(response.body).toBe('you sent Bearer [redacted]');
    });

    it('withholds a binary body that echoes the secret instead of storing it for read_media', async () => {
      server.handler = (request, response) => {
        response.setHeader('content-type', 'application/octet-stream');
        response.end(
          Buffer.concat([
            Buffer.from([0, 1, 2]),
            Buffer.from(String(request.headers.authorization)),
          ]),
        );
      };
      const stored: Uint8Array[] = [];
      const arm = localArm({
        resolveCredential: () => 'sk-binary-echo-7777',
        media: {
          put: async (bytes) => {
            stored.push(bytes);
            return {
              type: 'media',
              handle: `media://sha256-${'b'.repeat(64)}`,
              mimeType: 'application/octet-stream',
              sizeBytes: bytes.byteLength,
            };
          },
        },
      });

      const response = await arm.fetch(get('/', { credentialRef: 'key' }));

      expect(stored).toEqual([]);
      expect(response.media).toBeUndefined();
      expect(response.body).toBe('[binary body withheld: it echoes the request credential]');
      expect(JSON.stringify(response)).not.toContain('sk-binary-echo');
    });

    it('does not end a cut body with the first characters of an echoed secret', async () => {
      const secret = 'sk-cut-in-the-middle-31337';
      // The 1000-byte cap falls 9 characters into the echoed secret.
      server.handler = (_request, response) =>
        response.end(`${'x'.repeat(991)}${secret}${'y'.repeat(100)}`);
      const arm = localArm({ maxBodyBytes: 1000, resolveCredential: () => secret });

      const response = await arm.fetch(get('/', { credentialRef: 'key' }));

      expect(response.body.startsWith(`${'x'.repeat(991)}\n[… truncated`)).toBe(true);
      expect(response.body).not.toContain('sk-cut-in');
    });

    it('keeps the secret out of the final URL when a redirect echoes it', async () => {
      server.handler = (request, response) => {
        if (request.url === '/') {
          const token = String(request.headers.authorization).replace('Bearer ', '');
          response.statusCode = 302;
          response.setHeader('location', `/landed?echo=${token}`);
        }
        response.end('ok');
      };
      const arm = localArm({ resolveCredential: () => 'sk-redirected-secret-4242' });

      const response = await arm.fetch(get('/', { credentialRef: 'key' }));

      expect(server.seen[1]?.url).toBe('/landed?echo=sk-redirected-secret-4242');
      expect(JSON.stringify(response)).not.toContain('sk-redirected-secret-4242');
    });

    it('fails with a secret-free error when the credential is missing', async () => {
      const arm = localArm();

      const error: unknown = await arm
        .fetch(get('/', { credentialRef: 'env:TOOLHOST_EGRESS_UNSET_KEY' }))
        .catch((caught: unknown) => caught);

      expect(error).toMatchObject({ reason: 'credential_unavailable' });
      expect(String((error as Error).message)).not.toContain('TOOLHOST_EGRESS_UNSET_KEY');
      expect(server.seen).toHaveLength(0);
    });
  });

  describe('the body', () => {
    it('cuts a text body at maxBodyBytes with a marker', async () => {
      server.handler = (_request, response) => response.end('x'.repeat(5000));
      const arm = localArm({ maxBodyBytes: 1000 });

      const response = await arm.fetch(get());

      expect(response.body.startsWith('x'.repeat(1000))).toBe(true);
      expect(response.body).toContain('[… truncated: body exceeded 1000 bytes');
      expect(response.truncated).toEqual({ byteLength: 5000 });
    });

    it('hands a binary body to the media store under the request scope', async () => {
      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
      server.handler = (_request, response) => {
        response.setHeader('content-type', 'image/png');
        response.end(png);
      };
      const stored: Array<{ bytes: Uint8Array; mimeType: string; scopes: readonly string[] }> = [];
      const part: DurableMediaPart = {
        type: 'media',
        handle: `media://sha256-${'a'.repeat(64)}`,
        mimeType: 'image/png',
        sizeBytes: png.byteLength,
      };
      const arm = localArm({
        media: {
          put: async (bytes, info) => {
            stored.push({ bytes, ...info });
            return part;
          },
        },
      });

      const response = await arm.fetch(get('/', { mediaScope: 'run-1' }));

      expect(response).toMatchObject({ status: 200, body: '', media: part });
      expect(Buffer.from(stored[0]?.bytes ?? [])).toEqual(png);
      expect(stored[0]).toMatchObject({ mimeType: 'image/png', scopes: ['run-1'] });
    });

    it('describes a binary body instead of inlining it when no media store is wired', async () => {
      server.handler = (_request, response) => {
        response.setHeader('content-type', 'application/octet-stream');
        response.end(Buffer.alloc(10));
      };
      const arm = localArm();

      const response = await arm.fetch(get());

      expect(response.body).toBe('[binary body: 10 bytes of application/octet-stream]');
    });

    it('keeps memory bounded while a server streams 1 GiB', async () => {
      let written = 0;
      server.handler = (_request, response) => {
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        response.setHeader('content-type', 'text/plain');
        response.setHeader('content-length', String(1024 ** 3));
        const pump = (): void => {
          while (written < 1024 ** 3 && !response.destroyed) {
            written += chunk.byteLength;
            if (!response.write(chunk)) {
              response.once('drain', pump);
              return;
            }
          }
          response.end();
        };
        response.on('close', () => response.removeAllListeners('drain'));
        pump();
      };
      const arm = localArm();
      const before = process.memoryUsage().rss;

      const response = await arm.fetch(get());

      const growth = process.memoryUsage().rss - before;
      expect(response.truncated).toEqual({ byteLength: 1024 ** 3 });
      expect(response.body.length).toBeLessThan(10 * 1024 * 1024 + 200);
      expect(growth).toBeLessThan(64 * 1024 * 1024);
      expect(written).toBeLessThan(64 * 1024 * 1024);
    });
  });

  describe('time and cancellation', () => {
    it('fails with timed_out when the server never answers', async () => {
      server.handler = () => undefined;
      const arm = localArm({ timeoutMs: 300 });

      const attempt = arm.fetch(get());

      await expect(attempt).rejects.toMatchObject({ code: 'tool_failed', reason: 'timed_out' });
    });

    it('cancels a request in flight', async () => {
      server.handler = () => undefined;
      const arm = localArm();
      const controller = new AbortController();

      const attempt = arm.fetch(get(), controller.signal);
      setTimeout(() => controller.abort(), 100);

      await expect(attempt).rejects.toBeInstanceOf(ToolCancelledError);
    });

    it('settles a call cancelled before its headers only once its connection has closed', async () => {
      // The TLS socket undici holds (the TCP one under it is closed the moment TLS is torn down).
      const closeHeard: boolean[] = [];
      const onConnected = (message: unknown): void => {
        const index = closeHeard.push(false) - 1;
        (message as { socket: Socket }).socket.once('close', () => {
          closeHeard[index] = true;
        });
      };
      subscribe('undici:client:connected', onConnected);
      onTestFinished(() => {
        unsubscribe('undici:client:connected', onConnected);
      });
      let requested: () => void = () => undefined;
      const arrived = new Promise<void>((resolve) => {
        requested = resolve;
      });
      server.handler = () => requested();
      const arm = localArm();
      const controller = new AbortController();
      let closedAtSettle: boolean[] = [];

      const attempt = arm.fetch(get(), controller.signal).catch((caught: unknown) => {
        closedAtSettle = [...closeHeard];
        return caught;
      });
      await arrived;
      controller.abort();
      const error = await attempt;

      expect(error).toBeInstanceOf(ToolCancelledError);
      // `destroy()` alone does not end the request: its native `close` event was heard first.
      expect(closedAtSettle).toEqual([true]);
    });

    it('never connects for an already-aborted call', async () => {
      const arm = localArm();

      const attempt = arm.fetch(get(), AbortSignal.abort());

      await expect(attempt).rejects.toBeInstanceOf(ToolCancelledError);
      expect(server.seen).toHaveLength(0);
    });

    it('does not dial when the abort lands while DNS is pending', async () => {
      const dials: DialTarget[] = [];
      const controller = new AbortController();
      const arm = localArm({
        dialTcp: server.dialToHere(dials),
        lookup: async () => {
          controller.abort();
          await new Promise((resolve) => setTimeout(resolve, 20));
          return [{ address: '127.0.0.1', family: 4 }];
        },
      });

      const attempt = arm.fetch(get(), controller.signal);

      await expect(attempt).rejects.toBeInstanceOf(ToolCancelledError);
      await new Promise((resolve) => setTimeout(resolve, 40));
      expect(dials).toEqual([]);
    });

    it('runs the whole operation inside the runner retainWork hook', async () => {
      const arm = localArm();
      let retained = 0;

      await arm.fetch(get(), undefined, {
        retainWork: async (factory) => {
          retained += 1;
          return factory();
        },
      });

      expect(retained).toBe(1);
    });
  });
});
