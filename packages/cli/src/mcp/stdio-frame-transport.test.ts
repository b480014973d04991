import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_STDIO_FRAME_BYTES, StdioFrameTransport } from './stdio-frame-transport.js';

const ping = (id: number) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })}\n`;

describe('StdioFrameTransport', () => {
  const open: StdioFrameTransport[] = [];
  afterEach(async () => {
    for (const transport of open.splice(0)) await transport.close();
  });

  async function connect(maxFrameBytes?: number) {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const warnings: string[] = [];
    const received: JSONRPCMessage[] = [];
    const sent: unknown[] = [];
    stdout.setEncoding('utf8').on('data', (line: string) => {
      for (const frame of line.split('\n').filter(Boolean)) sent.push(JSON.parse(frame));
    });
    const transport = new StdioFrameTransport({
      stdin,
      stdout,
      warn: (line) => warnings.push(line),
      ...(maxFrameBytes === undefined ? {} : { maxFrameBytes }),
    });
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    open.push(transport);
    return { stdin, warnings, received, sent };
  }
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('reads frames split across chunks and several frames in one chunk', async () => {
    const { stdin, received } = await connect();
    const two = ping(1) + ping(2);
    stdin.write(two.slice(0, 7));
    stdin.write(two.slice(7, 40));
    stdin.write(two.slice(40));
    await settle();

    expect(received).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ]);
  });

  it('answers a frame over the cap with an error for its id (written last, as the SDK does) and reads on', async () => {
    const { stdin, received, sent, warnings } = await connect(1024);
    const huge = { method: 'tools/call', params: { arguments: { content: 'x'.repeat(5000) } } };
    const frame = `${JSON.stringify({ ...huge, jsonrpc: '2.0', id: 7 })}\n`;
    for (let at = 0; at < frame.length; at += 300) stdin.write(frame.slice(at, at + 300));
    stdin.write(ping(8));
    await settle();

    expect(sent).toEqual([
      {
        jsonrpc: '2.0',
        id: 7,
        error: expect.objectContaining({
          code: -32600,
          data: { frameBytes: frame.length - 1, maxFrameBytes: 1024 },
        }) as unknown,
      },
    ]);
    expect(warnings).toEqual([
      expect.stringMatching(/refused a \d+-byte request over the 1024-byte/u),
    ]);
    expect(warnings.join('')).not.toContain('xxxx');
    expect(received).toEqual([{ jsonrpc: '2.0', id: 8, method: 'ping' }]);
  });

  it('finds an id written first too, a string id included', async () => {
    const { stdin, sent } = await connect(256);
    stdin.write(
      `{"jsonrpc":"2.0","id":"req-1","method":"tools/call","params":{"a":"${'y'.repeat(600)}"}}\n`,
    );
    await settle();

    expect(sent).toMatchObject([{ id: 'req-1', error: { code: -32600 } }]);
  });

  it('drops a frame over the cap without a recoverable id, says so, and reads on', async () => {
    const { stdin, sent, warnings, received } = await connect(256);
    stdin.write(`{"method":"notifications/x","params":{"a":"${'z'.repeat(600)}"}}\n${ping(3)}`);
    await settle();

    expect(sent).toEqual([]);
    expect(warnings).toEqual([expect.stringContaining('dropped a')]);
    expect(received).toEqual([{ jsonrpc: '2.0', id: 3, method: 'ping' }]);
  });

  it('drops a line that is not JSON-RPC with a warning and keeps serving', async () => {
    const { stdin, warnings, received } = await connect();
    stdin.write(`not json\r\n${ping(4).replace('\n', '\r\n')}`);
    await settle();

    expect(warnings).toEqual([expect.stringContaining('not a JSON-RPC message')]);
    expect(received).toEqual([{ jsonrpc: '2.0', id: 4, method: 'ping' }]);
  });

  it('caps frames above the SDK stdio read buffer (10 MiB), which closed the server', () => {
    expect(MAX_STDIO_FRAME_BYTES).toBeGreaterThan(10 * 1024 * 1024);
  });
});
