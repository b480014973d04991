import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { EgressRequest } from '@toolhost/core/host';

import { createEgressArm, type EgressArm } from './create-egress-arm.js';
import type { DialTarget } from './create-pinned-dispatcher.js';
import { mapLookup, type DnsTable } from './test-support/map-lookup.js';
import { createTestCertificate, type TestCertificate } from './test-support/test-certificate.js';
import { startTestHttpsServer, type TestHttpsServer } from './test-support/test-https-server.js';

interface SsrfCase {
  readonly id: string;
  readonly url: string;
  readonly expect: 'block' | 'allow';
  readonly class: string;
  readonly allowlist: readonly string[];
  readonly dns?: DnsTable;
  readonly ip?: string;
  readonly redirects?: readonly string[];
}

const corpus = JSON.parse(
  readFileSync(new URL('../../../../test/corpus/ssrf.json', import.meta.url), 'utf8'),
) as SsrfCase[];

// `policy` cases where our documented answer differs from the corpus default. Spec §2.6 strips
// one trailing dot from request hosts and allowlist entries alike, so `api.example.com%2e`
// (decoded to `api.example.com.`) is the allowlisted host, dialled on its checked address.
const POLICY_CHOICES: Readonly<Record<string, 'allow' | 'block'>> = { 'ssrf-144': 'allow' };

const PUBLIC = '93.184.215.14';

describe('egressFetch hop by hop (server on 127.0.0.1 behind the dial seam)', () => {
  let certificate: TestCertificate;
  let server: TestHttpsServer;
  let dials: DialTarget[] = [];
  const arms: EgressArm[] = [];

  beforeAll(async () => {
    certificate = createTestCertificate();
    server = await startTestHttpsServer(certificate);
  });
  afterAll(() => server.close());
  afterEach(async () => {
    await Promise.all(arms.splice(0).map((arm) => arm.close()));
    server.seen.length = 0;
    dials = [];
    server.handler = (_request, response) => response.end('ok');
  });

  /** Public DNS answers, every connection actually sent to the local server. */
  function publicArm(dns: DnsTable): EgressArm {
    const arm = createEgressArm({
      lookup: mapLookup(dns),
      ca: certificate.ca,
      dialTcp: server.dialToHere(dials),
    });
    arms.push(arm);
    return arm;
  }

  /** Answers the n-th request with `Location: locations[n]`, then 200 `ok`. */
  function serveRedirects(locations: readonly string[], status = 302): void {
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

  describe('every case of shared/corpus/ssrf.json', () => {
    it.each(corpus.map((entry) => [entry.id, entry] as const))('%s', async (_id, entry) => {
      const expected = POLICY_CHOICES[entry.id] ?? entry.expect;
      serveRedirects(entry.redirects ?? []);
      const arm = publicArm(entry.dns ?? {});
      const request: EgressRequest = {
        method: 'GET',
        url: entry.url,
        headers: {},
        allowedDomains: entry.allowlist,
      };

      const outcome = arm.fetch(request);

      if (expected === 'block') {
        await expect(outcome).rejects.toMatchObject({ code: 'tool_denied' });
        return;
      }
      await expect(outcome).resolves.toMatchObject({ status: 200, body: 'ok' });
      // The connector dialled a checked answer for the allowlisted name, never anything else.
      const answers = Object.values(entry.dns ?? {}).flat(2);
      const literal = new URL(entry.url).hostname.replace(/^\[|\]$/g, '');
      const checked = isIP(literal) === 0 ? answers : [literal];
      expect(dials.length).toBeGreaterThan(0);
      for (const dial of dials) expect(checked).toContain(dial.address);
    });
  });

  describe('redirects', () => {
    const request = (extra: Partial<EgressRequest> = {}): EgressRequest => ({
      method: 'GET',
      url: 'https://api.example.com/start',
      headers: {},
      allowedDomains: ['api.example.com'],
      ...extra,
    });

    it('follows a relative Location resolved against the previous URL', async () => {
      serveRedirects(['/a/b', '../c?d=1']);
      const arm = publicArm({ 'api.example.com': [PUBLIC] });

      const response = await arm.fetch(request());

      expect(response.url).toBe('https://api.example.com/c?d=1');
      expect(server.seen.map((seen) => seen.url)).toEqual(['/start', '/a/b', '/c?d=1']);
    });

    it('follows exactly 5 redirects', async () => {
      serveRedirects(['/1', '/2', '/3', '/4', '/5']);
      const arm = publicArm({ 'api.example.com': [PUBLIC] });

      const response = await arm.fetch(request());

      expect(response).toMatchObject({ status: 200, url: 'https://api.example.com/5' });
    });

    it('refuses the sixth redirect with too_many_redirects', async () => {
      serveRedirects(['/1', '/2', '/3', '/4', '/5', '/6']);
      const arm = publicArm({ 'api.example.com': [PUBLIC] });

      const attempt = arm.fetch(request());

      await expect(attempt).rejects.toMatchObject({
        code: 'tool_failed',
        reason: 'too_many_redirects',
      });
      expect(server.seen).toHaveLength(6);
    });

    it('refuses a redirect loop', async () => {
      server.handler = (_request, response) => {
        response.statusCode = 301;
        response.setHeader('location', '/start');
        response.end();
      };
      const arm = publicArm({ 'api.example.com': [PUBLIC] });

      await expect(arm.fetch(request())).rejects.toMatchObject({ reason: 'too_many_redirects' });
    });

    it('refuses a redirect to a private IP even when it is allowlisted', async () => {
      serveRedirects(['https://10.0.0.5/admin']);
      const arm = publicArm({ 'api.example.com': [PUBLIC] });

      const attempt = arm.fetch(request({ allowedDomains: ['api.example.com', '10.0.0.5'] }));

      await expect(attempt).rejects.toMatchObject({ reason: 'ssrf_blocked' });
      expect(dials).toHaveLength(1);
    });

    it('refuses a redirect to an allowlisted name that resolves to metadata', async () => {
      serveRedirects(['https://hop.example.com/']);
      const arm = publicArm({
        'api.example.com': [PUBLIC],
        'hop.example.com': ['169.254.169.254'],
      });

      const attempt = arm.fetch(
        request({ allowedDomains: ['api.example.com', 'hop.example.com'] }),
      );

      await expect(attempt).rejects.toMatchObject({ reason: 'ssrf_blocked' });
    });

    it('refuses a redirect to http:', async () => {
      serveRedirects(['http://api.example.com/plain']);
      const arm = publicArm({ 'api.example.com': [PUBLIC] });

      await expect(arm.fetch(request())).rejects.toMatchObject({ reason: 'insecure_url' });
      expect(server.seen).toHaveLength(1);
    });

    it('refuses a redirect carrying userinfo', async () => {
      serveRedirects(['https://user:pass@api.example.com/']);
      const arm = publicArm({ 'api.example.com': [PUBLIC] });

      await expect(arm.fetch(request())).rejects.toMatchObject({ reason: 'insecure_url' });
    });

    it('refuses a redirect to a host outside allowedDomains', async () => {
      serveRedirects(['https://evil.example.net/']);
      const arm = publicArm({ 'api.example.com': [PUBLIC], 'evil.example.net': [PUBLIC] });

      await expect(arm.fetch(request())).rejects.toMatchObject({ reason: 'domain_not_allowed' });
      expect(dials).toHaveLength(1);
    });

    it('keeps a redirect on the original host when allowedDomains is absent', async () => {
      serveRedirects(['https://evil.example.net/']);
      const arm = publicArm({ 'api.example.com': [PUBLIC], 'evil.example.net': [PUBLIC] });
      const { allowedDomains: _omitted, ...withoutAllowlist } = request();

      await expect(arm.fetch(withoutAllowlist)).rejects.toMatchObject({
        reason: 'domain_not_allowed',
      });
    });

    it('re-resolves and re-checks every hop (rebinding between hops)', async () => {
      serveRedirects(['/again']);
      const lookup = { 'api.example.com': [[PUBLIC], ['127.0.0.1']] };
      const arm = publicArm(lookup);

      await expect(arm.fetch(request())).rejects.toMatchObject({ reason: 'ssrf_blocked' });
      expect(server.seen).toHaveLength(1);
    });

    it('turns a POST into a body-less GET on 303', async () => {
      serveRedirects(['/done'], 303);
      const bodies: string[] = [];
      const redirect = server.handler;
      server.handler = (incoming, response) => {
        let text = '';
        incoming.on('data', (chunk: Buffer) => (text += chunk.toString()));
        incoming.on('end', () => {
          bodies.push(`${incoming.method ?? ''} ${text}`);
          redirect(incoming, response);
        });
      };
      const arm = publicArm({ 'api.example.com': [PUBLIC] });

      await arm.fetch(
        request({ method: 'POST', body: 'payload', headers: { 'content-type': 'text/plain' } }),
      );

      expect(bodies).toEqual(['POST payload', 'GET ']);
    });

    it('keeps the method and body on 307', async () => {
      serveRedirects(['/again'], 307);
      const bodies: string[] = [];
      const redirect = server.handler;
      server.handler = (incoming, response) => {
        let text = '';
        incoming.on('data', (chunk: Buffer) => (text += chunk.toString()));
        incoming.on('end', () => {
          bodies.push(`${incoming.method ?? ''} ${text}`);
          redirect(incoming, response);
        });
      };
      const arm = publicArm({ 'api.example.com': [PUBLIC] });

      await arm.fetch(request({ method: 'PUT', body: 'payload' }));

      expect(bodies).toEqual(['PUT payload', 'PUT payload']);
    });

    it('does not re-arm the credential when a chain returns to the first origin', async () => {
      serveRedirects(['https://hop.example.com/', 'https://api.example.com/delete-everything']);
      const arm = createEgressArm({
        lookup: mapLookup({ 'api.example.com': [PUBLIC], 'hop.example.com': ['93.184.215.15'] }),
        ca: certificate.ca,
        dialTcp: server.dialToHere(dials),
        resolveCredential: () => 'sk-bounce-secret',
      });
      arms.push(arm);

      await arm.fetch(
        request({
          credentialRef: 'key',
          credentialHeader: 'x-custom-key',
          allowedDomains: ['api.example.com', 'hop.example.com'],
        }),
      );

      expect(server.seen.map((seen) => seen.headers['x-custom-key'])).toEqual([
        'sk-bounce-secret',
        undefined,
        undefined,
      ]);
    });

    it('does not carry the credential to another allowed origin', async () => {
      serveRedirects(['https://hop.example.com/']);
      const arm = createEgressArm({
        lookup: mapLookup({ 'api.example.com': [PUBLIC], 'hop.example.com': ['93.184.215.15'] }),
        ca: certificate.ca,
        dialTcp: server.dialToHere(dials),
        resolveCredential: () => 'sk-cross-origin-secret',
      });
      arms.push(arm);

      await arm.fetch(
        request({ credentialRef: 'key', allowedDomains: ['api.example.com', 'hop.example.com'] }),
      );

      expect(server.seen.map((seen) => [seen.headers.host, seen.headers.authorization])).toEqual([
        ['api.example.com', 'Bearer sk-cross-origin-secret'],
        ['hop.example.com', undefined],
      ]);
      expect(dials.map(({ address }) => address)).toEqual([PUBLIC, '93.184.215.15']);
    });
  });
});
