import { Readable } from 'node:stream';

import { describe, expect, it } from 'vitest';

import { readResponseBody } from './read-response-body.js';

async function* chunks(...parts: Uint8Array[]): AsyncIterable<Uint8Array> {
  for (const part of parts) yield part;
}

const bytes = (text: string): Uint8Array => Buffer.from(text, 'utf8');

describe('readResponseBody', () => {
  it('returns a small text body whole', async () => {
    const read = await readResponseBody({
      toolId: 'http_request',
      body: chunks(bytes('hello '), bytes('world')),
      contentType: 'text/plain; charset=utf-8',
      maxBytes: 100,
    });

    expect(read).toEqual({ kind: 'text', text: 'hello world' });
  });

  it('cuts text at the cap on a code-point boundary', async () => {
    const read = await readResponseBody({
      toolId: 'http_request',
      body: chunks(bytes('ab€€')),
      contentType: 'text/plain',
      maxBytes: 6,
    });

    expect(read).toEqual({ kind: 'text', text: 'ab€', truncatedAt: 5 });
  });

  it('stops pulling chunks once the cap is reached', async () => {
    let pulled = 0;
    async function* endless(): AsyncIterable<Uint8Array> {
      for (;;) {
        pulled += 1;
        yield new Uint8Array(1024).fill(0x61);
      }
    }

    await readResponseBody({
      toolId: 'http_request',
      body: endless(),
      contentType: 'text/plain',
      maxBytes: 4096,
    });

    expect(pulled).toBe(5);
  });

  it('destroys a stream at the cap instead of draining it', async () => {
    let pulled = 0;
    const stream = Readable.from(
      (function* endless(): Generator<Uint8Array> {
        for (;;) {
          pulled += 1;
          yield new Uint8Array(1024).fill(0x61);
        }
      })(),
      { objectMode: false },
    );

    const read = await readResponseBody({
      toolId: 'http_request',
      body: stream,
      contentType: 'text/plain',
      maxBytes: 4096,
    });

    expect(read).toMatchObject({ kind: 'text', truncatedAt: 4096 });
    expect(stream.destroyed).toBe(true);
    expect(pulled).toBeLessThan(64);
  });

  it('survives a stream that emits an error when cut at the cap (as undici bodies do)', async () => {
    const emitted: unknown[] = [];
    const stream = new Readable({
      read() {
        this.push(Buffer.alloc(1024, 0x61));
      },
      destroy(error, callback) {
        callback(error ?? new Error('Request aborted'));
      },
    });
    stream.on('error', (error) => emitted.push(error));

    const read = await readResponseBody({
      toolId: 'http_request',
      body: stream,
      contentType: 'text/plain',
      maxBytes: 2048,
    });
    await new Promise((resolve) => setImmediate(resolve));

    expect(read).toMatchObject({ kind: 'text', truncatedAt: 2048 });
    expect(emitted).toHaveLength(1);
    // Our own listener stays, so the late error is heard even when nobody else listens.
    expect(stream.listenerCount('error')).toBe(2);
  });

  it('settles at close, not at end: the response still owns its socket until then', async () => {
    const stream = new Readable({ read: () => undefined, autoDestroy: false });
    stream.push('whole body');
    stream.push(null);
    let settled = false;

    const read = readResponseBody({
      toolId: 'http_request',
      body: stream,
      contentType: 'text/plain',
      maxBytes: 4096,
    }).finally(() => (settled = true));
    await new Promise((resolve) => stream.once('end', resolve));
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(settled).toBe(false);
    stream.destroy();
    await expect(read).resolves.toEqual({ kind: 'text', text: 'whole body' });
  });

  it('settles a cut body only once its destroy has closed it', async () => {
    let finishDestroy: () => void = () => undefined;
    const stream = new Readable({
      read() {
        this.push(Buffer.alloc(1024, 0x61));
      },
      destroy(error, callback) {
        finishDestroy = () => callback(error);
      },
    });
    let settled = false;

    const read = readResponseBody({
      toolId: 'http_request',
      body: stream,
      contentType: 'text/plain',
      maxBytes: 2048,
    }).finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(stream.destroyed).toBe(true);
    expect(settled).toBe(false);
    finishDestroy();
    await expect(read).resolves.toMatchObject({ kind: 'text', truncatedAt: 2048 });
  });

  it('fails when the stream errors mid-body', async () => {
    const stream = new Readable({ read: () => undefined });
    stream.push('partial');
    setTimeout(() => stream.destroy(new Error('reset')), 10);

    const attempt = readResponseBody({
      toolId: 'http_request',
      body: stream,
      contentType: 'text/plain',
      maxBytes: 4096,
    });

    await expect(attempt).rejects.toThrow('reset');
  });

  it('treats a NUL in the first bytes as binary whatever the content-type says', async () => {
    const read = await readResponseBody({
      toolId: 'http_request',
      body: chunks(new Uint8Array([0x50, 0x00, 0x4b])),
      contentType: 'text/plain',
      maxBytes: 100,
    });

    expect(read).toMatchObject({ kind: 'binary', mimeType: 'text/plain' });
  });

  it('treats an image content-type as binary', async () => {
    const read = await readResponseBody({
      toolId: 'http_request',
      body: chunks(bytes('GIF89a')),
      contentType: 'image/gif',
      maxBytes: 100,
    });

    expect(read).toMatchObject({ kind: 'binary', mimeType: 'image/gif' });
  });

  it('keeps JSON as text', async () => {
    const read = await readResponseBody({
      toolId: 'http_request',
      body: chunks(bytes('{"a":1}')),
      contentType: 'application/problem+json',
      maxBytes: 100,
    });

    expect(read).toEqual({ kind: 'text', text: '{"a":1}' });
  });

  it('refuses a binary body past the cap as too_large', async () => {
    const attempt = readResponseBody({
      toolId: 'http_request',
      body: chunks(new Uint8Array(200)),
      contentType: 'application/octet-stream',
      maxBytes: 100,
    });

    await expect(attempt).rejects.toMatchObject({ code: 'tool_failed', reason: 'too_large' });
  });
});
