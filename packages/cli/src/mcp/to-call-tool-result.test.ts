import { markUntrusted, type DurableMediaPart } from '@toolhost/core/host';
import { describe, expect, it } from 'vitest';
import { toCallToolResult } from './to-call-tool-result.js';

const HANDLE = `media://sha256-${'ab'.repeat(32)}`;

describe('toCallToolResult', () => {
  it('carries a string as is, bulk text raw under its header, anything else as JSON', async () => {
    const text = await toCallToolResult({
      toolResult: markUntrusted({ type: 'tool_result', result: 'plain' }),
    });
    const json = await toCallToolResult({
      toolResult: markUntrusted({ type: 'tool_result', result: { a: 1 } }),
    });

    expect(text.content).toEqual([{ type: 'text', text: 'plain' }]);
    expect(json.content).toEqual([{ type: 'text', text: '{"a":1}' }]);
    const rendered = await toCallToolResult({
      toolResult: markUntrusted({ type: 'tool_result', result: { exitCode: 0, stdout: 'a\nb\n' } }),
    });
    expect(rendered.content).toEqual([
      { type: 'text', text: '{\n  "exitCode": 0\n}\n===== stdout =====\na\nb\n' },
    ]);
  });

  it.each([
    ['a PNG as image content', 'image/png', undefined, { type: 'image', mimeType: 'image/png' }],
    ['an MP3 as audio content', 'audio/mpeg', undefined, { type: 'audio', mimeType: 'audio/mpeg' }],
    [
      'a PDF as an embedded blob',
      'application/pdf',
      undefined,
      { type: 'resource', resource: { uri: HANDLE, mimeType: 'application/pdf' } },
    ],
    [
      'an SVG as an opaque blob, not an image',
      'image/svg+xml',
      undefined,
      { type: 'resource', resource: { uri: HANDLE, mimeType: 'image/svg+xml' } },
    ],
    [
      'a slice of a PNG as octet-stream bytes',
      'image/png',
      { start: 1, end: 3 },
      {
        type: 'resource',
        resource: { uri: `${HANDLE}#bytes=1-3`, mimeType: 'application/octet-stream' },
      },
    ],
  ] as const)('sends %s after the text', async (_case, mimeType, range, expected) => {
    const data = new Uint8Array([1, 2, 3]);
    const part: DurableMediaPart = {
      type: 'media',
      handle: HANDLE,
      mimeType,
      sizeBytes: range === undefined ? 3 : 8,
      ...(range === undefined ? {} : { range }),
      data,
    };

    const result = await toCallToolResult({
      toolResult: markUntrusted({ type: 'tool_result', result: 'meta' }),
      mediaAttachments: markUntrusted([part]),
    });

    expect(result.content[0]).toEqual({ type: 'text', text: 'meta' });
    expect(result.content[1]).toMatchObject(expected);
    expect(JSON.stringify(result.content[1])).toContain(Buffer.from(data).toString('base64'));
  });

  it('names a handle-only part it has no store to read, and sends no bytes', async () => {
    const part: DurableMediaPart = {
      type: 'media',
      handle: HANDLE,
      mimeType: 'audio/wav',
      sizeBytes: 10,
    };

    const result = await toCallToolResult({
      toolResult: markUntrusted({ type: 'tool_result', result: 'meta' }),
      mediaAttachments: markUntrusted([part]),
    });

    expect(result.content.slice(1)).toEqual([
      {
        type: 'text',
        text: `[media ${HANDLE} (audio/wav, 10 bytes) not sent: this server forwards no stored media]`,
      },
    ]);
  });

  it('spends one byte budget across the parts of a result', async () => {
    const part = (byte: number): DurableMediaPart => ({
      type: 'media',
      handle: HANDLE,
      mimeType: 'image/png',
      sizeBytes: 4,
      data: new Uint8Array(4).fill(byte),
    });

    const result = await toCallToolResult(
      {
        toolResult: markUntrusted({ type: 'tool_result', result: 'two' }),
        mediaAttachments: markUntrusted([part(1), part(2)]),
      },
      { maxBytes: 6 },
    );

    expect(result.content.map((block) => block.type)).toEqual(['text', 'image', 'text']);
    expect(result.content[2]).toMatchObject({
      text: expect.stringContaining('not sent: over the 6-byte media cap of one result'),
    });
  });
});
