import { describe, expect, it } from 'vitest';
import { approvalActionClass } from '../loop/approval-action-class.js';
import { ToolExecutionError } from '../errors.js';
import type { EgressRequest } from '../tool-host.js';
import { CANARY, expectArgsRejected } from './test-support/expect-args.js';
import {
  effectiveArgs,
  EMPTY_HOST,
  onlyCall,
  stubHost,
  testContext,
} from './test-support/stub-host.js';
import { webSearchTool } from './web-search.js';

const endpoint = 'https://search.example/res/v1/web/search';
const braveBody = JSON.stringify({
  type: 'search',
  web: { results: [{ title: 't', url: 'https://a/', description: 'd' }] },
});

describe('web_search', () => {
  it('defaults maxResults to 5', () => {
    expect(webSearchTool.parseArgs({ query: 'q', endpoint })).toEqual({
      query: 'q',
      endpoint,
      maxResults: 5,
    });
  });

  it.each([
    ['a missing query', { endpoint }, 'query'],
    ['an empty query', { query: '', endpoint }, 'query'],
    ['a blank query', { query: '   ', endpoint }, 'query'],
    ['an over-long query', { query: CANARY.repeat(100), endpoint }, 'query'],
    ['zero results', { query: 'q', maxResults: 0, endpoint }, 'maxResults'],
    ['more than 20 results', { query: 'q', maxResults: 21, endpoint }, 'maxResults'],
    ['a missing endpoint', { query: 'q' }, 'endpoint'],
    [
      'an http endpoint',
      { query: 'q', endpoint: `http://search.example/?k=${CANARY}` },
      'endpoint',
    ],
    ['an unknown provider', { query: 'q', endpoint, provider: 'google' }, 'provider'],
    ['an unknown key', { query: 'q', endpoint, lang: 'en' }, 'lang'],
  ])('rejects %s, naming the field', (_case, raw, field) => {
    expectArgsRejected(webSearchTool, raw, field);
  });

  it('hides endpoint, credentialRef, provider and credentialHeader from the model', () => {
    expect(Object.keys(webSearchTool.llmVisibleParams['properties'] as object)).toEqual([
      'query',
      'maxResults',
    ]);
  });

  it('ignores an endpoint or credential a model supplies and keeps the configured ones', () => {
    const modelArgs = { query: 'q', endpoint: 'https://evil.example/', credentialRef: 'OTHER_KEY' };

    const args = effectiveArgs(webSearchTool, modelArgs, { endpoint, credentialRef: 'BRAVE_KEY' });

    expect(args).toEqual({ query: 'q', maxResults: 5, endpoint, credentialRef: 'BRAVE_KEY' });
  });

  it('sends a Brave GET with the query and count encoded, the key on x-subscription-token', async () => {
    const { host, calls } = stubHost({
      fetch: () => ({ status: 200, headers: {}, body: braveBody }),
    });
    const signal = new AbortController().signal;
    const hostCallOptions = {};
    const args = {
      query: 'a&b #c',
      maxResults: 3,
      endpoint,
      credentialRef: 'BRAVE_KEY',
      provider: 'brave' as const,
    };

    await webSearchTool.dispatch(args, host, testContext({ signal, hostCallOptions }));

    expect(onlyCall(calls, 'egress.fetch')).toEqual([
      {
        method: 'GET',
        url: `${endpoint}?q=a%26b+%23c&count=3`,
        headers: { accept: 'application/json' },
        credentialRef: 'BRAVE_KEY',
        credentialHeader: 'x-subscription-token',
      },
      signal,
      hostCallOptions,
    ]);
  });

  it('asks SearXNG for JSON and sends no credential when none is configured', async () => {
    const body = JSON.stringify({ results: [] });
    const { host, calls } = stubHost({ fetch: () => ({ status: 200, headers: {}, body }) });

    await webSearchTool.dispatch(
      { query: 'x', maxResults: 5, endpoint: 'https://sx.example/search', provider: 'searxng' },
      host,
      testContext(),
    );

    const request = onlyCall(calls, 'egress.fetch')[0] as EgressRequest;
    expect(request.url).toBe('https://sx.example/search?q=x&format=json');
    expect(request).not.toHaveProperty('credentialRef');
    expect(request).not.toHaveProperty('credentialHeader');
    expect(request).not.toHaveProperty('allowedDomains');
  });

  it('returns normalised results', async () => {
    const { host } = stubHost({ fetch: () => ({ status: 200, headers: {}, body: braveBody }) });

    const result = await webSearchTool.dispatch(
      { query: 'q', maxResults: 5, endpoint },
      host,
      testContext(),
    );

    expect(result).toEqual({ results: [{ title: 't', url: 'https://a/', snippet: 'd' }] });
  });

  it.each([
    ['a 429', 429, 'http_429'],
    ['a 500', 500, 'http_500'],
    ['a 302 left unfollowed', 302, 'http_302'],
    ['a nonsense status', 0, 'upstream_error'],
  ])('fails on %s with reason %s', async (_case, status, reason) => {
    const { host } = stubHost({ fetch: () => ({ status, headers: {}, body: CANARY }) });

    const attempt = webSearchTool.dispatch(
      { query: 'q', maxResults: 5, endpoint },
      host,
      testContext(),
    );

    await expect(attempt).rejects.toBeInstanceOf(ToolExecutionError);
    await expect(attempt).rejects.toMatchObject({ reason });
    await expect(attempt).rejects.not.toThrow(CANARY);
  });

  it.each([
    ['HTML', '<html>captcha</html>'],
    ['JSON of another shape', '{"items":[]}'],
    ['a truncated body', braveBody.slice(0, 20)],
  ])('fails unknown_response_shape on %s', async (_case, body) => {
    const { host } = stubHost({ fetch: () => ({ status: 200, headers: {}, body }) });

    const attempt = webSearchTool.dispatch(
      { query: 'q', maxResults: 5, endpoint },
      host,
      testContext(),
    );

    await expect(attempt).rejects.toMatchObject({
      code: 'tool_failed',
      reason: 'unknown_response_shape',
    });
  });

  it('is search egress whose target is the endpoint host only, governed as egress', () => {
    expect(webSearchTool.policy).toEqual({
      fsScoped: false,
      spawnsProcess: false,
      egress: 'search',
      requiresGateApproval: false,
      effect: { readOnly: true, destructive: false, idempotent: true },
    });
    const target = webSearchTool.policyTarget?.({
      query: 'q',
      maxResults: 5,
      endpoint: 'https://Search.Example/api/v1?key=k',
    });
    // No url: the http allowlist must not judge a config-pinned endpoint.
    expect(target).toEqual({ endpointHost: 'search.example' });
    expect(approvalActionClass(webSearchTool)).toBe('egress');
  });

  it('fails with ToolUnavailableError naming egress when the arm is absent', async () => {
    await expect(
      webSearchTool.dispatch({ query: 'q', maxResults: 5, endpoint }, EMPTY_HOST, testContext()),
    ).rejects.toMatchObject({ capability: 'egress' });
  });
});
