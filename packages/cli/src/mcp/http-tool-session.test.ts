import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openHttpToolSession, sharedRun } from './http-tool-session.js';
import { createServeGates } from './serve-call-limits.js';
import { createTestServerOptions } from './test-support/in-process-server.js';

describe('openHttpToolSession', () => {
  let sandbox = '';
  let built: Awaited<ReturnType<typeof createTestServerOptions>>;
  beforeEach(async () => {
    sandbox = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-http-session-')));
    await mkdir(path.join(sandbox, 'app'));
    built = await createTestServerOptions({
      root: path.join(sandbox, 'app'),
      stateDir: path.join(sandbox, 'state'),
      grant: ['write_file'],
      mode: 'ask',
    });
  });
  afterEach(async () => {
    await built.close();
    await rm(sandbox, { recursive: true, force: true });
  });

  it('is busy exactly while a call of its own runs', async () => {
    const session = await openHttpToolSession(sharedRun(built.serverOptions), createServeGates());
    const client = new Client(
      { name: 'toolhost-test', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } } },
    );
    let answer: (result: ElicitResult) => void = () => undefined;
    const asked = new Promise<void>((resolve) => {
      client.setRequestHandler(ElicitRequestSchema, () => {
        resolve();
        return new Promise<ElicitResult>((settle) => (answer = settle));
      });
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await session.server.connect(serverSide);
    await client.connect(clientSide);
    const before = session.busy();

    const call = client.callTool({
      name: 'write_file',
      arguments: { path: 'a.txt', content: 'a' },
    });
    await asked;
    const during = session.busy();
    answer({ action: 'decline' });
    await call.catch(() => undefined);

    expect([before, during, session.busy()]).toEqual([false, true, false]);
    await client.close();
    await session.close();
  });
});
