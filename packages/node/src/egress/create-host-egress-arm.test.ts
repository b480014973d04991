import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { createNodeToolHost } from '../create-node-tool-host.js';
import { mapLookup } from './test-support/map-lookup.js';
import { createTestCertificate, type TestCertificate } from './test-support/test-certificate.js';
import { startTestHttpsServer, type TestHttpsServer } from './test-support/test-https-server.js';

describe('createNodeToolHost({ egress })', () => {
  let certificate: TestCertificate;
  let server: TestHttpsServer;
  let base = '';

  beforeAll(async () => {
    certificate = createTestCertificate();
    server = await startTestHttpsServer(certificate);
  });
  afterAll(() => server.close());
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'toolhost-egress-host-'));
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  it('has no egress arm unless egress options are given', async () => {
    const handle = await createNodeToolHost({ root: base, stateDir: join(base, 'state') });

    expect(handle.host.egress).toBeUndefined();
    await handle.close();
  });

  it('rejects a malformed dangerouslyAllowRanges entry at creation', async () => {
    const attempt = createNodeToolHost({
      root: base,
      stateDir: join(base, 'state'),
      egress: { dangerouslyAllowRanges: ['not-a-cidr'] },
    });

    await expect(attempt).rejects.toThrow(TypeError);
  });

  it('stores a binary body in the host media store, readable under the request scope', async () => {
    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]);
    server.handler = (_request, response) => {
      response.setHeader('content-type', 'image/jpeg');
      response.end(bytes);
    };
    const handle = await createNodeToolHost({
      root: base,
      stateDir: join(base, 'state'),
      egress: {
        lookup: mapLookup({ 'egress.test': ['127.0.0.1'] }),
        dangerouslyAllowRanges: ['127.0.0.1/32'],
        ca: certificate.ca,
      },
    });

    const response = await handle.host.egress?.fetch({
      method: 'GET',
      url: `https://egress.test:${server.port}/photo`,
      headers: {},
      mediaScope: 'run-7',
    });

    const handleId = response?.media?.handle ?? '';
    expect(response?.media).toMatchObject({ mimeType: 'image/jpeg', sizeBytes: bytes.byteLength });
    expect(await handle.host.media?.stat(handleId)).toMatchObject({ allowedScopes: ['run-7'] });
    expect(
      Buffer.from((await handle.host.media?.read(handleId, { start: 0, end: 7 })) ?? []),
    ).toEqual(bytes);
    await handle.close();
  });
});
