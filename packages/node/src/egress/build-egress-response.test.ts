import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { ToolDispatchContext } from '@toolhost/core';
import type { EgressRequest } from '@toolhost/core/host';
import { webSearchTool } from '@toolhost/core/tools';

import { createEgressArm, type EgressArm } from './create-egress-arm.js';
import { credentialForms, echoesCredential } from './redact-credential-echo.js';
import type { EgressOptions } from './resolve-egress-options.js';
import { CREDENTIAL_ENCODINGS, HOSTILE_SECRET } from './test-support/credential-encodings.js';
import { mapLookup } from './test-support/map-lookup.js';
import { createTestCertificate, type TestCertificate } from './test-support/test-certificate.js';
import { startTestHttpsServer, type TestHttpsServer } from './test-support/test-https-server.js';

const forms = credentialForms(HOSTILE_SECRET);

// What the server saw on `authorization`, minus the scheme: the secret an echo hands back.
const sentSecret = (header: string | undefined): string => String(header).replace('Bearer ', '');

describe('buildEgressResponse against an echo server on 127.0.0.1', () => {
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
    server.handler = (_request, response) => response.end('ok');
  });

  function localArm(overrides: EgressOptions = {}): EgressArm {
    const arm = createEgressArm({
      lookup: mapLookup({ 'egress.test': ['127.0.0.1'] }),
      dangerouslyAllowRanges: ['127.0.0.1/32'],
      ca: certificate.ca,
      resolveCredential: () => HOSTILE_SECRET,
      ...overrides,
    });
    arms.push(arm);
    return arm;
  }

  const get = (path = '/'): EgressRequest => ({
    method: 'GET',
    url: `https://egress.test:${server.port}${path}`,
    headers: {},
    credentialRef: 'key',
  });

  // The result as the model would see it, and as JSON.parse / a decoder would read it back.
  const leaks = (value: unknown): boolean => echoesCredential(JSON.stringify(value), forms);

  it.each(CREDENTIAL_ENCODINGS)(
    'redacts a body echoing the secret as %s',
    async (_case, encode) => {
      server.handler = (request, response) => {
        response.setHeader('content-type', 'application/json');
        response.end(`{"echo":"${encode(sentSecret(request.headers.authorization))}","ok":true}`);
      };

      const response = await localArm().fetch(get());

      expect(response.body).toContain('[redacted]');
      expect(response.body).toContain('"ok":true');
      expect(leaks(response)).toBe(false);
    },
  );

  it.each(CREDENTIAL_ENCODINGS)(
    'drops a header echoing the secret as %s',
    async (_case, encode) => {
      server.handler = (request, response) => {
        // Header values cannot hold a line break; the wrapped form is sent on one line.
        const value = encode(sentSecret(request.headers.authorization)).replaceAll('\r\n', '');
        response.setHeader('x-echo', value);
        response.setHeader('x-safe', 'yes');
        response.end('ok');
      };

      const response = await localArm().fetch(get());

      expect(response.headers['x-echo']).toBeUndefined();
      expect(response.headers['x-safe']).toBe('yes');
      expect(leaks(response)).toBe(false);
    },
  );

  it('redacts a percent-encoded secret a redirect put in the final URL', async () => {
    server.handler = (request, response) => {
      if (request.url === '/') {
        const encoded = encodeURIComponent(sentSecret(request.headers.authorization));
        response.statusCode = 302;
        response.setHeader('location', `/landed?echo=${encoded}&page=2`);
      }
      response.end('ok');
    };

    const response = await localArm().fetch(get());

    expect(response.url).toBe(`https://egress.test:${server.port}/landed?echo=[redacted]&page=2`);
  });

  it('withholds a binary body carrying the secret as base64', async () => {
    server.handler = (request, response) => {
      response.setHeader('content-type', 'application/octet-stream');
      const encoded = Buffer.from(sentSecret(request.headers.authorization)).toString('base64');
      response.end(Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(encoded)]));
    };

    const response = await localArm().fetch(get());

    expect(response.body).toBe('[binary body withheld: it echoes the request credential]');
  });

  it.each([
    ['percent-encoded', (secret: string) => encodeURIComponent(secret)],
    ['base64', (secret: string) => Buffer.from(secret).toString('base64')],
  ])('does not end a cut body with the start of a %s echo', async (_case, encode) => {
    server.handler = (request, response) => {
      const encoded = encode(sentSecret(request.headers.authorization));
      // The 1000-byte cap falls two thirds of the way into the encoded echo.
      const start = 1000 - Math.floor((encoded.length * 2) / 3);
      response.end(`${'x'.repeat(start)}${encoded}${'y'.repeat(100)}`);
    };

    const response = await localArm({ maxBodyBytes: 1000 }).fetch(get());

    expect(response.body).toMatch(/^x+\n\[… truncated/);
    expect(response.body.indexOf('\n')).toBeLessThan(1000 - 10);
  });

  it.each([
    ['a prefix of the secret', `{"hint":"${HOSTILE_SECRET.slice(0, 20)}"}`],
    [
      'base64 of another key',
      `{"blob":"${Buffer.from('sk-live/Xy1+zz=0_q.Rr5-Tt').toString('base64')}"}`,
    ],
    ['ordinary escapes', '{"a":"line\\n \\u00e9 \\/path","q":"a%20b&amp;c"}'],
  ])('leaves a body with %s untouched', async (_case, body) => {
    server.handler = (_request, response) => response.end(body);

    const response = await localArm().fetch(get());

    expect(response.body).toBe(body);
  });

  it('keeps a \\u00XX-escaped echo out of web_search results after JSON.parse', async () => {
    server.handler = (request, response) => {
      const escaped = [...sentSecret(request.headers.authorization)]
        .map((char) => `\\u00${char.charCodeAt(0).toString(16)}`)
        .join('');
      response.setHeader('content-type', 'application/json');
      response.end(
        `{"results":[{"title":"t","url":"https://a.example/","content":"key ${escaped}"}]}`,
      );
    };
    const context: ToolDispatchContext = {
      nodeId: 'test',
      grantedToolIds: new Set(['web_search']),
      config: {},
      toolPolicy: {},
      fsScope: 'sandboxed',
      gateApproved: false,
    };

    const result = await webSearchTool.dispatch(
      {
        query: 'q',
        maxResults: 5,
        endpoint: `https://egress.test:${server.port}/search`,
        credentialRef: 'key',
        provider: 'searxng',
      },
      { egress: localArm() },
      context,
    );

    expect(result.results[0]?.snippet).toBe('key [redacted]');
    expect(leaks(result)).toBe(false);
  });
});
