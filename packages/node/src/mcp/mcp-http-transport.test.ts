import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpArm } from './create-mcp-arm.js';
import { startFixtureHttpServer } from './test-support/fixture-http-server.js';

describe('createMcpArm over Streamable HTTP', () => {
  let fixture: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    fixture = await startFixtureHttpServer();
    process.env.TOOLHOST_TEST_HTTP_TOKEN = 'header-secret';
  });
  afterAll(async () => {
    await fixture.close();
    delete process.env.TOOLHOST_TEST_HTTP_TOKEN;
  });

  it('reaches the declared allowLocal server with a credentialRef header', async () => {
    const { host } = new URL(fixture.url);
    const arm = await createMcpArm({
      servers: {
        web: {
          transport: 'http',
          url: fixture.url,
          allowLocal: host,
          headers: { 'x-fixture-token': { credentialRef: 'env:TOOLHOST_TEST_HTTP_TOKEN' } },
        },
      },
    });
    try {
      const result = await arm.capability.call({ server: 'web', tool: 'whoami', args: {} });

      expect(arm.tools.map((tool) => tool.id)).toEqual(['mcp_web_whoami']);
      expect(result).toBe('token=header-secret');
    } finally {
      await arm.close();
    }
  });

  it.each([
    ['plain http without allowLocal', (url: string) => url, 'insecure_url'],
    [
      'https to a loopback literal',
      (url: string) => url.replace('http:', 'https:'),
      'ssrf_blocked',
    ],
    ['https to localhost', () => 'https://localhost:1/mcp', 'ssrf_blocked'],
    ['https to a metadata address', () => 'https://169.254.169.254/mcp', 'ssrf_blocked'],
  ])('refuses %s before connecting', async (_case, toUrl, reason) => {
    const arm = await createMcpArm({
      servers: { web: { transport: 'http', url: toUrl(fixture.url) } },
    });

    expect(arm.report.servers).toEqual([{ name: 'web', status: 'failed', reason, toolCount: 0 }]);
    await arm.close();
  });
});
