import { describe, expect, it } from 'vitest';
import { approvalActionClass } from '../loop/approval-action-class.js';
import { splitMedia } from '../with-media.js';
import { httpRequestTool } from './http-request.js';
import { CANARY, expectArgsRejected } from './test-support/expect-args.js';
import { EMPTY_HOST, onlyCall, stubHost, testContext } from './test-support/stub-host.js';

const handle = `media://sha256-${'b'.repeat(64)}`;

describe('http_request', () => {
  it('defaults the method to GET', () => {
    expect(httpRequestTool.parseArgs({ url: 'https://a.example/' })).toEqual({
      url: 'https://a.example/',
      method: 'GET',
    });
  });

  it.each([
    ['a missing url', {}, 'url'],
    ['an over-long url', { url: `https://a.example/${CANARY.repeat(500)}` }, 'url'],
    ['an unknown method', { url: 'https://a', method: 'PATCH' }, 'method'],
    ['a non-string header value', { url: 'https://a', headers: { a: 1 } }, 'headers.a'],
    [
      'too many headers',
      {
        url: 'https://a',
        headers: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`h${i}`, CANARY])),
      },
      'headers',
    ],
    ['a non-string body', { url: 'https://a', body: {} }, 'body'],
    ['an unknown key', { url: 'https://a', proxy: CANARY }, 'proxy'],
  ])('rejects %s, naming the field', (_case, raw, field) => {
    expectArgsRejected(httpRequestTool, raw, field);
  });

  it('fetches with the allowlist for redirect re-checks, the media scope, signal and host options', async () => {
    const { host, calls } = stubHost();
    const signal = new AbortController().signal;
    const hostCallOptions = {};
    const ctx = testContext({
      signal,
      hostCallOptions,
      mediaScope: 'run-1',
      toolPolicy: { allowedDomains: ['api.example'] },
    });

    await httpRequestTool.dispatch(
      { url: 'https://api.example/x', method: 'POST', headers: { a: 'b' }, body: '{}' },
      host,
      ctx,
    );

    expect(onlyCall(calls, 'egress.fetch')).toEqual([
      {
        method: 'POST',
        url: 'https://api.example/x',
        headers: { a: 'b' },
        body: '{}',
        allowedDomains: ['api.example'],
        mediaScope: 'run-1',
      },
      signal,
      hostCallOptions,
    ]);
  });

  it('sends an empty allowlist (deny every redirect off-host) when the policy has none', async () => {
    const { host, calls } = stubHost();

    await httpRequestTool.dispatch({ url: 'https://a/', method: 'GET' }, host, testContext());

    expect(onlyCall(calls, 'egress.fetch')[0]).toEqual({
      method: 'GET',
      url: 'https://a/',
      headers: {},
      allowedDomains: [],
    });
  });

  it('returns status, headers and body, a non-2xx status as data', async () => {
    const { host } = stubHost({
      fetch: () => ({ status: 404, headers: { x: 'y' }, body: 'nope' }),
    });

    const result = await httpRequestTool.dispatch(
      { url: 'https://a/', method: 'GET' },
      host,
      testContext(),
    );

    expect(result).toEqual({ status: 404, headers: { x: 'y' }, body: 'nope' });
  });

  it('returns a binary body as a media attachment, never inline', async () => {
    const media = { type: 'media' as const, handle, mimeType: 'image/png', sizeBytes: 4 };
    const { host } = stubHost({ fetch: () => ({ status: 200, headers: {}, body: '', media }) });

    const split = splitMedia(
      await httpRequestTool.dispatch({ url: 'https://a/', method: 'GET' }, host, testContext()),
    );

    expect(split.result).toEqual({ status: 200, headers: {}, body: '' });
    expect(split.parts).toEqual([media]);
  });

  it('targets the url and is governed as egress', () => {
    expect(httpRequestTool.policy).toEqual({
      fsScoped: false,
      spawnsProcess: false,
      egress: 'http',
      requiresGateApproval: false,
      effect: { readOnly: false, destructive: true, idempotent: false },
    });
    expect(httpRequestTool.policyTarget?.({ url: 'https://a/', method: 'GET' })).toEqual({
      url: 'https://a/',
    });
    expect(approvalActionClass(httpRequestTool)).toBe('egress');
  });

  it('fails with ToolUnavailableError naming egress when the arm is absent', async () => {
    await expect(
      httpRequestTool.dispatch({ url: 'https://a/', method: 'GET' }, EMPTY_HOST, testContext()),
    ).rejects.toMatchObject({ code: 'tool_unavailable', capability: 'egress' });
  });
});
