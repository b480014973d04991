import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToolServer } from './create-tool-server.js';
import { maxStringLengthFor } from './fit-schema-to-frame.js';
import { createTestServerOptions } from './test-support/in-process-server.js';

describe('createToolServer maxFrameBytes', () => {
  let sandbox = '';
  beforeEach(async () => {
    sandbox = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-frames-')));
    await mkdir(path.join(sandbox, 'app'));
  });
  afterEach(() => rm(sandbox, { recursive: true, force: true }));

  it('serves string maxLengths cut to what one frame of the transport carries', async () => {
    const built = await createTestServerOptions({
      root: path.join(sandbox, 'app'),
      stateDir: path.join(sandbox, 'state'),
      grant: ['write_file'],
      mode: 'ask',
    });
    const maxFrameBytes = 4 * 1024 * 1024;
    const server = createToolServer({ ...built.serverOptions, maxFrameBytes });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'toolhost-test', version: '1.0.0' });
    await server.connect(serverSide);
    await client.connect(clientSide);

    const { tools } = await client.listTools();
    const content = (tools[0]?.inputSchema.properties as Record<string, { maxLength?: number }>)
      .content;

    // write_file's own bound is 8 Mi code units; a 4 MiB frame carries fewer, escaped at worst.
    expect(content?.maxLength).toBe(maxStringLengthFor(maxFrameBytes));
    expect(content?.maxLength).toBeLessThan(8 * 1024 * 1024);
    await client.close();
    await built.close();
  });
});
