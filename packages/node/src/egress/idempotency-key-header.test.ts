import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { BUILTIN_TOOLS, createToolRegistry, type ToolDispatchContext } from '@toolhost/core';
import type { EgressRequest } from '@toolhost/core/host';

import { createEgressArm, type EgressArm } from './create-egress-arm.js';
import type { DialTarget } from './create-pinned-dispatcher.js';
import { toIdempotencyKeyHeader } from './idempotency-key-header.js';
import { mapLookup } from './test-support/map-lookup.js';
import { createTestCertificate, type TestCertificate } from './test-support/test-certificate.js';
import { startTestHttpsServer, type TestHttpsServer } from './test-support/test-https-server.js';

const KEY = 'th1-0f3a9c2e5b7d';
const API = '93.184.215.14';
const HOP = '93.184.215.15';

describe('toIdempotencyKeyHeader', () => {
  it('quotes the key as an sf-string, escaping quote and backslash', () => {
    expect(toIdempotencyKeyHeader('http_request', KEY)).toBe(`"${KEY}"`);
    expect(toIdempotencyKeyHeader('http_request', 'a"b\\c')).toBe('"a\\"b\\\\c"');
  });

  it.each([
    ['empty', ''],
    ['a newline', 'a\nb'],
    ['non-ASCII', 'clé'],
  ])('refuses %s: it has no sf-string form', (_case, key) => {
    expect(() => toIdempotencyKeyHeader('http_request', key)).toThrow(
      expect.objectContaining({ code: 'tool_failed', reason: 'idempotency_key_invalid' }),
    );
  });
});

describe('the Idempotency-Key header on a real HTTPS request', () => {
  let certificate: TestCertificate;
  let server: TestHttpsServer;
  const dials: DialTarget[] = [];
  let arm: EgressArm;

  beforeAll(async () => {
    certificate = createTestCertificate();
    server = await startTestHttpsServer(certificate);
    arm = createEgressArm({
      lookup: mapLookup({ 'api.example.com': [API], 'hop.example.com': [HOP] }),
      ca: certificate.ca,
      dialTcp: server.dialToHere(dials),
    });
  });
  afterAll(async () => {
    await arm.close();
    await server.close();
  });
  afterEach(() => {
    server.seen.length = 0;
    server.handler = (_request, response) => response.end('ok');
  });

  const post = (extra: Partial<EgressRequest> = {}): EgressRequest => ({
    method: 'POST',
    url: 'https://api.example.com/refunds',
    headers: { 'content-type': 'application/json' },
    body: '{"amount":1}',
    allowedDomains: ['api.example.com', 'hop.example.com'],
    ...extra,
  });

  /** Answers the n-th request with `status` and `Location: locations[n]`, then 200. */
  function serveRedirects(locations: readonly string[], status: number): void {
    let served = 0;
    server.handler = (_request, response) => {
      const location = locations[served];
      served += 1;
      if (location === undefined) {
        response.end('ok');
        return;
      }
      response.statusCode = status;
      response.setHeader('location', location);
      response.end();
    };
  }

  const sentKeys = () => server.seen.map((seen) => seen.rawHeaders.filter(isKeyName).length);
  const isKeyName = (_value: string, index: number, raw: string[]) =>
    index % 2 === 0 && raw[index]?.toLowerCase() === 'idempotency-key';

  it('sends the host key, quoted, exactly once', async () => {
    await arm.fetch(post(), undefined, { idempotencyKey: KEY });

    expect(server.seen.map((seen) => seen.headers['idempotency-key'])).toEqual([`"${KEY}"`]);
    expect(sentKeys()).toEqual([1]);
  });

  it.each(['Idempotency-Key', 'idempotency-key', 'IDEMPOTENCY-KEY'])(
    "replaces the model's %s header with the host's",
    async (name) => {
      await arm.fetch(post({ headers: { [name]: '"model-chosen"' } }), undefined, {
        idempotencyKey: KEY,
      });

      expect(server.seen[0]?.headers['idempotency-key']).toBe(`"${KEY}"`);
      expect(sentKeys()).toEqual([1]);
    },
  );

  it('adds nothing without a key, and leaves a model header as it was', async () => {
    await arm.fetch(post(), undefined, {});
    await arm.fetch(post({ headers: { 'Idempotency-Key': '"model-chosen"' } }));

    expect(server.seen.map((seen) => seen.headers['idempotency-key'])).toEqual([
      undefined,
      '"model-chosen"',
    ]);
  });

  it('keeps the key on a same-origin 307 (the same request, re-sent)', async () => {
    serveRedirects(['/refunds/v2'], 307);

    await arm.fetch(post(), undefined, { idempotencyKey: KEY });

    expect(server.seen.map((seen) => [seen.method, seen.headers['idempotency-key']])).toEqual([
      ['POST', `"${KEY}"`],
      ['POST', `"${KEY}"`],
    ]);
  });

  it('never sends the key to another origin, nor back to the first after leaving it', async () => {
    serveRedirects(['https://hop.example.com/', 'https://api.example.com/again'], 308);

    await arm.fetch(post(), undefined, { idempotencyKey: KEY });

    expect(server.seen.map((seen) => [seen.headers.host, seen.headers['idempotency-key']])).toEqual(
      [
        ['api.example.com', `"${KEY}"`],
        ['hop.example.com', undefined],
        ['api.example.com', undefined],
      ],
    );
  });

  it('drops the key when a 303 turns the request into a body-less GET', async () => {
    serveRedirects(['/receipt'], 303);

    await arm.fetch(post(), undefined, { idempotencyKey: KEY });

    expect(server.seen.map((seen) => [seen.method, seen.headers['idempotency-key']])).toEqual([
      ['POST', `"${KEY}"`],
      ['GET', undefined],
    ]);
  });

  it('reaches the server from http_request and web_search through dispatch', async () => {
    server.handler = (_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end('{"web":{"results":[]}}');
    };
    const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host: { egress: arm } });
    const context = (parameters: Record<string, unknown>): ToolDispatchContext => ({
      nodeId: 'test',
      grantedToolIds: new Set(['http_request', 'web_search']),
      config: { parameters },
      toolPolicy: { allowedDomains: ['api.example.com'] },
      fsScope: 'sandboxed',
      gateApproved: true,
      hostCallOptions: { idempotencyKey: KEY },
    });

    await registry.dispatch(
      {
        id: 'c1',
        name: 'http_request',
        args: { method: 'POST', url: 'https://api.example.com/refunds', body: '{}' },
      },
      context({}),
    );
    await registry.dispatch(
      { id: 'c2', name: 'web_search', args: { query: 'toolhost' } },
      context({ endpoint: 'https://api.example.com/search', provider: 'brave' }),
    );

    expect(server.seen.map((seen) => seen.headers['idempotency-key'])).toEqual([
      `"${KEY}"`,
      `"${KEY}"`,
    ]);
  });
});
