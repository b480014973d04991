import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApprovalBroker } from './approval-broker.js';
import { loopbackRequest } from './test-support/loopback-request.js';
import { UiEventHub } from './ui-event-hub.js';
import { UI_SECURITY_HEADERS } from './ui-guard.js';
import { startUiServer, type RunningUiServer } from './ui-server.js';

describe('the control tower guard', () => {
  let server: RunningUiServer;
  let token = '';
  let port = 0;
  beforeAll(async () => {
    server = await startUiServer({
      hub: new UiEventHub(),
      broker: new ApprovalBroker({ timeoutMs: 60_000 }),
      policy: { sections: [] },
    });
    const url = new URL(server.url);
    token = url.searchParams.get('token') ?? '';
    port = server.port;
  });
  afterAll(() => server.close());

  it('listens on 127.0.0.1 and prints a URL carrying a 43-character token', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/u);
  });

  it.each([
    ['the query token', `/?token=TOKEN`, {}],
    ['a bearer token', '/', { authorization: 'Bearer TOKEN' }],
    ['the localhost name', '/?token=TOKEN', { host: 'localhost:PORT' }],
    ['its own origin', '/?token=TOKEN', { origin: 'http://127.0.0.1:PORT' }],
  ])('serves the page with %s', async (_case, target, headers) => {
    const response = await loopbackRequest(port, fill(target), { headers: fillAll(headers) });

    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/u);
  });

  it.each([
    ['no token', '/', {}],
    ['a wrong token', '/?token=wrong', {}],
    ['a right token beside a wrong one', '/?token=TOKEN&token=wrong', {}],
    ['a wrong bearer token', '/', { authorization: 'Bearer wrong' }],
    ['the token in a cookie', '/', { cookie: 'token=TOKEN' }],
    ['no token on the event stream', '/events', {}],
    ['no token on the spill route', '/api/sessions/s/spills/x', {}],
  ])('refuses %s with 401', async (_case, target, headers) => {
    const response = await loopbackRequest(port, fill(target), { headers: fillAll(headers) });

    expect(response.status).toBe(401);
    expect(response.body).not.toContain('<html');
  });

  it.each([
    ['a rebinding host', { host: 'attacker.example:PORT' }],
    ['another port', { host: '127.0.0.1:1' }],
    ['a foreign origin', { origin: 'http://attacker.example' }],
    ['the origin of another loopback port', { origin: 'http://127.0.0.1:1' }],
    ['the null origin', { origin: 'null' }],
  ])('refuses %s with 403 even with the token', async (_case, headers) => {
    const response = await loopbackRequest(port, fill('/?token=TOKEN'), {
      headers: fillAll(headers),
    });

    expect(response.status).toBe(403);
  });

  it('sets no CORS header, even on a preflight from a foreign origin', async () => {
    const preflight = await loopbackRequest(port, fill('/api/approvals/x?token=TOKEN'), {
      method: 'OPTIONS',
      headers: {
        origin: 'http://attacker.example',
        'access-control-request-method': 'POST',
      },
    });
    const page = await loopbackRequest(port, fill('/?token=TOKEN'));

    expect(preflight.status).toBe(403);
    for (const response of [preflight, page]) {
      expect(
        Object.keys(response.headers).filter((name) => name.startsWith('access-control-')),
      ).toEqual([]);
    }
  });

  it('puts the strict headers on every answer, refusals included', async () => {
    const answers = await Promise.all([
      loopbackRequest(port, fill('/?token=TOKEN')),
      loopbackRequest(port, fill('/ui.js?token=TOKEN')),
      loopbackRequest(port, '/'),
      loopbackRequest(port, fill('/?token=TOKEN'), { headers: { origin: 'http://evil.test' } }),
    ]);

    for (const response of answers) {
      for (const [name, value] of Object.entries(UI_SECURITY_HEADERS))
        expect(response.headers[name]).toBe(value);
    }
    expect(UI_SECURITY_HEADERS['content-security-policy']).toMatch(
      /^default-src 'none'; script-src 'self'; style-src 'self';/u,
    );
  });

  it('serves the script and style as files and inlines neither', async () => {
    const page = await loopbackRequest(port, fill('/?token=TOKEN'));
    const script = await loopbackRequest(port, fill('/ui.js?token=TOKEN'));
    const style = await loopbackRequest(port, fill('/ui.css?token=TOKEN'));

    expect(page.body).toContain(fill('<script src="/ui.js?token=TOKEN" defer></script>'));
    expect(page.body).not.toMatch(/<script>|<style|\sstyle="|\son\w+="/u);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/u);
    expect(style.headers['content-type']).toMatch(/^text\/css/u);
    expect(script.body).not.toContain('innerHTML');
  });

  it.each([
    ['no token', {}, 401],
    ['a foreign origin', { origin: 'http://attacker.example', authorization: 'Bearer TOKEN' }, 403],
    [
      'a form content type',
      { authorization: 'Bearer TOKEN', 'content-type': 'application/x-www-form-urlencoded' },
      415,
    ],
    ['a text body', { authorization: 'Bearer TOKEN', 'content-type': 'text/plain' }, 415],
  ])('refuses a decision POST with %s', async (_case, headers, status) => {
    const response = await loopbackRequest(
      port,
      '/api/approvals/00000000-0000-4000-8000-000000000000',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...fillAll(headers) },
        body: JSON.stringify({ choice: 'once' }),
      },
    );

    expect(response.status).toBe(status);
  });

  it('answers a decision on an unknown approval with 404, and refuses other methods', async () => {
    const unknown = await loopbackRequest(
      port,
      '/api/approvals/00000000-0000-4000-8000-000000000000',
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ choice: 'once' }),
      },
    );
    const put = await loopbackRequest(port, '/api/approvals/x', {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });

    expect(unknown.status).toBe(404);
    expect(put.status).toBe(405);
  });

  function fill(text: string): string {
    return text.replaceAll('TOKEN', token).replaceAll('PORT', String(port));
  }

  function fillAll(headers: Readonly<Record<string, string>>): Record<string, string> {
    return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, fill(value)]));
  }
});
