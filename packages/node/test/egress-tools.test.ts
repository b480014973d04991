import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createToolRegistry, type ToolDispatchContext, type ToolRegistry } from '@toolhost/core';
import { httpRequestTool, webSearchTool } from '@toolhost/core/tools';

import { createEgressArm, type EgressArm } from '../src/egress/create-egress-arm.js';
import { mapLookup } from '../src/egress/test-support/map-lookup.js';
import { createTestCertificate } from '../src/egress/test-support/test-certificate.js';
import {
  startTestHttpsServer,
  type TestHttpsServer,
} from '../src/egress/test-support/test-https-server.js';

// http_request and web_search through the real registry pipeline onto the real egress arm,
// against an HTTPS server on 127.0.0.1.
describe('egress tools end to end (registry + Node egress arm)', () => {
  let server: TestHttpsServer;
  let arm: EgressArm;
  let registry: ToolRegistry;

  beforeAll(async () => {
    const certificate = createTestCertificate();
    server = await startTestHttpsServer(certificate);
    arm = createEgressArm({
      lookup: mapLookup({ 'egress.test': ['127.0.0.1'], 'search.example.com': ['127.0.0.1'] }),
      dangerouslyAllowRanges: ['127.0.0.1/32'],
      ca: certificate.ca,
      resolveCredential: (ref) => (ref === 'brave-key' ? 'BSA-test-key-0000' : undefined),
    });
    registry = createToolRegistry({
      tools: [httpRequestTool, webSearchTool],
      host: { egress: arm },
    });
  });
  afterAll(async () => {
    await arm.close();
    await server.close();
  });

  const context = (extra: Partial<ToolDispatchContext> = {}): ToolDispatchContext => ({
    nodeId: 'node-1',
    grantedToolIds: new Set(['http_request', 'web_search']),
    config: {},
    toolPolicy: { allowedDomains: ['egress.test'] },
    fsScope: 'sandboxed',
    gateApproved: false,
    ...extra,
  });

  it('runs http_request GET and returns status, headers and body', async () => {
    server.handler = (_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end('{"hello":"world"}');
    };

    const outcome = await registry.dispatch(
      { id: 'c1', name: 'http_request', args: { url: `https://egress.test:${server.port}/x` } },
      context(),
    );

    expect(outcome.output).toMatchObject({
      status: 200,
      body: '{"hello":"world"}',
      headers: { 'content-type': 'application/json' },
    });
  });

  it('refuses a host outside allowedDomains in the engine before the host is called', async () => {
    const before = server.seen.length;

    const attempt = registry.dispatch(
      {
        id: 'c2',
        name: 'http_request',
        args: { url: `https://search.example.com:${server.port}/` },
      },
      context(),
    );

    await expect(attempt).rejects.toMatchObject({
      code: 'tool_denied',
      reason: 'domain_not_allowed',
    });
    expect(server.seen.length).toBe(before);
  });

  it('refuses an allowlisted loopback literal at the host floor', async () => {
    const strict = createEgressArm({});
    const strictRegistry = createToolRegistry({
      tools: [httpRequestTool],
      host: { egress: strict },
    });

    const attempt = strictRegistry.dispatch(
      { id: 'c3', name: 'http_request', args: { url: `https://127.0.0.1:${server.port}/` } },
      context({ toolPolicy: { allowedDomains: ['127.0.0.1'] } }),
    );

    await expect(attempt).rejects.toMatchObject({ code: 'tool_denied', reason: 'ssrf_blocked' });
    await strict.close();
  });

  it('refuses a redirect to a non-allowed host through the tool', async () => {
    server.handler = (_request, response) => {
      response.statusCode = 302;
      response.setHeader('location', `https://search.example.com:${server.port}/`);
      response.end();
    };

    const attempt = registry.dispatch(
      { id: 'c4', name: 'http_request', args: { url: `https://egress.test:${server.port}/r` } },
      context(),
    );

    await expect(attempt).rejects.toMatchObject({ reason: 'domain_not_allowed' });
  });

  it('runs web_search against a Brave-shaped endpoint with the host-resolved key', async () => {
    let token: unknown;
    let query: string | null = null;
    server.handler = (request, response) => {
      token = request.headers['x-subscription-token'];
      query = new URL(request.url ?? '/', 'https://x').searchParams.get('q');
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          type: 'search',
          web: {
            results: [
              { title: 'Toolhost', url: 'https://toolhost.example/', description: 'safe tools' },
            ],
          },
        }),
      );
    };

    const outcome = await registry.dispatch(
      { id: 'c5', name: 'web_search', args: { query: 'safe tool execution' } },
      context({
        config: {
          parameters: {
            endpoint: `https://search.example.com:${server.port}/res/v1/web/search`,
            provider: 'brave',
            credentialRef: 'brave-key',
          },
        },
      }),
    );

    expect(outcome.output).toEqual({
      results: [{ title: 'Toolhost', url: 'https://toolhost.example/', snippet: 'safe tools' }],
    });
    expect(token).toBe('BSA-test-key-0000');
    expect(query).toBe('safe tool execution');
    expect(JSON.stringify(outcome)).not.toContain('BSA-test-key-0000');
  });

  it('runs web_search against a SearXNG-shaped endpoint', async () => {
    server.handler = (_request, response) => {
      response.end(
        JSON.stringify({ results: [{ title: 'A', url: 'https://a.example/', content: 'b' }] }),
      );
    };

    const outcome = await registry.dispatch(
      { id: 'c6', name: 'web_search', args: { query: 'q' } },
      context({
        config: {
          parameters: {
            endpoint: `https://search.example.com:${server.port}/search`,
            provider: 'searxng',
          },
        },
      }),
    );

    expect(outcome.output).toEqual({
      results: [{ title: 'A', url: 'https://a.example/', snippet: 'b' }],
    });
  });
});
