import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { LoopRegistry } from '@toolhost/core/loop';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMcpServer, type RunningMcpServer } from '../mcp-server.js';
import type { ServeCallLimits } from './serve-call-limits.js';
import { createTestClient, createTestServerOptions } from './test-support/in-process-server.js';

const MiB = 1024 * 1024;

describe('serve caps concurrent tool calls per session and in all', () => {
  let sandbox = '';
  let running: RunningMcpServer | undefined;
  let closeHost: () => Promise<void> = async () => undefined;
  const clients: Client[] = [];
  // The real registry, counting the dispatches that overlap (each held 20 ms so they would, and
  // until `hold` settles when a test sets it).
  const counter = { active: 0, peak: 0, started: 0 };
  let hold: Promise<void> | undefined;

  beforeEach(async () => {
    sandbox = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-serve-limits-')));
    await mkdir(path.join(sandbox, 'app'));
    await writeFile(path.join(sandbox, 'app', 'big.txt'), 'line\n'.repeat((2 * MiB) / 5));
    Object.assign(counter, { active: 0, peak: 0, started: 0 });
    hold = undefined;
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await running?.close();
    running = undefined;
    await closeHost();
    await rm(sandbox, { recursive: true, force: true });
  });

  const serve = async (callLimits: ServeCallLimits): Promise<string> => {
    const built = await createTestServerOptions({
      root: path.join(sandbox, 'app'),
      stateDir: path.join(sandbox, 'state'),
      grant: ['read_file'],
      mode: 'ask',
    });
    closeHost = built.close;
    const real = built.serverOptions.registry;
    const registry: LoopRegistry = {
      get: (id) => real.get(id),
      list: () => real.list(),
      dispatch: async (call, ctx) => {
        counter.started += 1;
        counter.active += 1;
        counter.peak = Math.max(counter.peak, counter.active);
        try {
          await delay(20);
          await hold;
          return await real.dispatch(call, ctx);
        } finally {
          counter.active -= 1;
        }
      },
    };
    running = await startMcpServer({
      ...built.serverOptions,
      registry,
      callLimits,
      transport: { kind: 'http' },
    });
    return running.url ?? '';
  };
  const connect = async (url: string): Promise<Client> => {
    const client = createTestClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    clients.push(client);
    return client;
  };
  const readBig = (client: Client) =>
    client.callTool({ name: 'read_file', arguments: { path: 'big.txt' } });

  it('runs at most maxCallsPerSession of one client’s 20 concurrent 2 MiB reads at once', async () => {
    const client = await connect(await serve({ maxCallsPerSession: 3 }));

    const results = await Promise.all(Array.from({ length: 20 }, () => readBig(client)));

    expect(results.every((result) => result.isError !== true)).toBe(true);
    expect(counter.started).toBe(20);
    expect(counter.peak).toBe(3);
  });

  it('caps every session together at maxCallsInFlight', async () => {
    const url = await serve({ maxCallsPerSession: 4, maxCallsInFlight: 5 });
    const [first, second] = [await connect(url), await connect(url)];

    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) => readBig(index % 2 === 0 ? first : second)),
    );

    expect(results.every((result) => result.isError !== true)).toBe(true);
    expect(counter.peak).toBe(5);
  });

  it('refuses calls past the queue as busy, without running them', async () => {
    const client = await connect(await serve({ maxCallsPerSession: 1, maxWaitingCalls: 2 }));
    // The first call is held until the refusals are back: however slowly the six requests
    // arrive, one runs, two wait and three find the queue full.
    let release = (): void => undefined;
    hold = new Promise((resolve) => {
      release = resolve;
    });
    let refused = 0;
    const calls = Array.from({ length: 6 }, () =>
      readBig(client).then((result) => {
        if (result.isError === true) refused += 1;
        return result;
      }),
    );
    for (let waited = 0; refused < 3 && waited < 15_000; waited += 10) await delay(10);
    release();

    const results = await Promise.all(calls);
    const busy = results.filter((result) => result.isError === true);

    expect(busy).toHaveLength(3);
    expect(JSON.stringify(busy[0]?.content)).toContain('nothing ran');
    expect(counter.started).toBe(3);
    // The refused ones held nothing: the next call runs.
    expect((await readBig(client)).isError).not.toBe(true);
  });

  it('refuses a bad limit when the server starts', async () => {
    await expect(serve({ maxCallsPerSession: 0 })).rejects.toThrow(TypeError);
  });
});
