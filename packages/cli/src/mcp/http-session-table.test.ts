import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { createHttpSessionTable, type HttpSessionEntry } from './http-session-table.js';

describe('createHttpSessionTable', () => {
  it('keeps a session whose call still runs after its client went, and ends it once idle', async () => {
    const table = createHttpSessionTable({ maxSessions: 4, idleTimeoutMs: 50 });
    const work = { running: true };
    const { entry, closes } = open(table, () => work.running);
    const response = new EventEmitter();
    table.track(entry, response);
    response.emit('close');

    await sleep(200);
    const whileRunning = table.get('a');
    work.running = false;
    await sleep(200);

    expect(whileRunning).toBe(entry);
    expect(table.get('a')).toBeUndefined();
    expect(closes()).toBe(1);
  });

  it('never expires a session while one of its requests is open', async () => {
    const table = createHttpSessionTable({ maxSessions: 4, idleTimeoutMs: 50 });
    const { entry } = open(table);
    table.track(entry, new EventEmitter());

    await sleep(200);

    expect(table.get('a')).toBe(entry);
    await table.closeAll();
  });

  it('evicts the session idle the longest, skipping a busy one, and refuses when none is idle', async () => {
    let clock = 0;
    const table = createHttpSessionTable({
      maxSessions: 3,
      idleTimeoutMs: 60_000,
      now: () => clock,
    });
    const busy = { running: true };
    const first = open(table, () => busy.running, 'first');
    clock = 1;
    const second = open(table, () => false, 'second');
    clock = 2;
    const third = open(table, () => false, 'third');

    const evicting = await table.reserve();
    table.add(transport(), {
      server: new Server({ name: 'x', version: '0' }),
      busy: () => true,
      close: () => Promise.resolve(),
    });
    third.mark();
    const full = await table.reserve();

    expect(evicting).toBe(true);
    expect(table.get('first')).toBe(first.entry);
    expect(table.get('second')).toBeUndefined();
    expect(second.closes()).toBe(1);
    expect(full).toBe(false);
    await table.closeAll();
  });

  it('ends a session once, however many ends race, and sweeps every session on closeAll', async () => {
    const table = createHttpSessionTable({ maxSessions: 4, idleTimeoutMs: 60_000 });
    const one = open(table, () => false, 'one');
    const two = open(table, () => false, 'two');

    await Promise.all([table.end(one.entry), table.end(one.entry), one.entry.transport.close()]);
    await table.closeAll();

    expect(one.closes()).toBe(1);
    expect(two.closes()).toBe(1);
    expect(await table.reserve()).toBe(false);
  });
});

// A real SDK transport and server, with a run whose teardown is counted.
function open(
  table: ReturnType<typeof createHttpSessionTable>,
  busy: () => boolean = () => false,
  id = 'a',
): { entry: HttpSessionEntry; closes(): number; mark(): void } {
  let closes = 0;
  let marked = false;
  const server = new Server({ name: 'x', version: '0' });
  const entry = table.add(transport(), {
    server,
    busy: () => marked || busy(),
    close: () => {
      closes += 1;
      return Promise.resolve();
    },
  });
  entry.transport.onclose = () => void table.end(entry);
  table.bind(entry, id);
  return { entry, closes: () => closes, mark: () => void (marked = true) };
}

function transport(): StreamableHTTPServerTransport {
  return new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
