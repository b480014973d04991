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
    const response = closingResponse();
    table.track(entry, response);
    response.close(false);

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
    table.track(entry, closingResponse());

    await sleep(200);

    expect(table.get('a')).toBe(entry);
    await table.closeAll();
  });

  it('ends a session whose last response dropped mid-answer at once, not after the idle timeout', async () => {
    const table = createHttpSessionTable({ maxSessions: 4, idleTimeoutMs: 60_000 });
    const work = { running: true };
    const { entry, closes, leaves } = open(table, () => work.running);
    const stream = closingResponse();
    const post = closingResponse();
    table.track(entry, stream);
    table.track(entry, post);

    // A request dropped while the GET stream stays open: a live client, not one that left.
    post.close(false);
    await sleep(100);
    const whileStreamOpen = { session: table.get('a'), leaves: leaves() };
    stream.close(false);
    const leftAtOnce = leaves();
    await sleep(100);
    const whileRunning = table.get('a');
    work.running = false;
    await sleep(150);

    expect(whileStreamOpen).toEqual({ session: entry, leaves: 0 });
    expect(leftAtOnce).toBe(1);
    expect(whileRunning).toBe(entry);
    expect(table.get('a')).toBeUndefined();
    expect({ closes: closes(), leaves: leaves() }).toEqual({ closes: 1, leaves: 1 });
  });

  it('keeps a session whose last response finished until its idle timeout', async () => {
    const table = createHttpSessionTable({ maxSessions: 4, idleTimeoutMs: 60_000 });
    const { entry, leaves } = open(table);
    const post = closingResponse();
    table.track(entry, post);

    post.close(true);
    await sleep(100);

    expect(table.get('a')).toBe(entry);
    expect(leaves()).toBe(0);
    await table.closeAll();
    expect(leaves()).toBe(1);
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
      ...noCalls,
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
): { entry: HttpSessionEntry; closes(): number; leaves(): number; mark(): void } {
  let closes = 0;
  let leaves = 0;
  let marked = false;
  const server = new Server({ name: 'x', version: '0' });
  const entry = table.add(transport(), {
    server,
    busy: () => marked || busy(),
    expectCalls: () => () => undefined,
    leave: () => void (leaves += 1),
    close: () => {
      closes += 1;
      return Promise.resolve();
    },
  });
  entry.transport.onclose = () => void table.end(entry);
  table.bind(entry, id);
  return {
    entry,
    closes: () => closes,
    leaves: () => leaves,
    mark: () => void (marked = true),
  };
}

// The table only hands these on; what they do is `caller-presence`'s.
const noCalls = { expectCalls: () => () => undefined, leave: () => undefined };

function transport(): StreamableHTTPServerTransport {
  return new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
}

// A response as the table sees it: `close(false)` is a connection dropped mid-answer.
function closingResponse(): EventEmitter & {
  writableFinished: boolean;
  close(finished: boolean): void;
} {
  const response = Object.assign(new EventEmitter(), {
    writableFinished: false,
    close(finished: boolean) {
      response.writableFinished = finished;
      response.emit('close');
    },
  });
  return response;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
