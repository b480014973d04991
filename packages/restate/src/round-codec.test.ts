import { isUntrusted, unwrapUntrusted, type ToolCallRound } from '@toolhost/core';
import { markUntrusted } from '@toolhost/core/host';
import { describe, expect, it } from 'vitest';

import { decodeRound, encodeRound } from './round-codec.js';
import { MAX_STEP_RESULT_BYTES } from './step-outcome.js';

const readResult = (content: unknown) => ({
  type: 'tool_result' as const,
  toolCallId: 'a',
  toolName: 'read_file',
  isError: false,
  content: markUntrusted(content),
});

const ROUND: ToolCallRound = {
  toolMessage: {
    role: 'tool',
    content: [
      readResult({ content: 'hello', sizeBytes: 5 }),
      {
        type: 'tool_result',
        toolCallId: 'b',
        toolName: 'write_file',
        isError: true,
        content: markUntrusted('toolhost: denied'),
      },
    ],
  },
  attachments: {
    role: 'user',
    content: [
      { type: 'text', text: '<reported-content nonce="n1">' },
      {
        type: 'media',
        toolCallId: 'a',
        media: markUntrusted({
          type: 'media',
          handle: 'media://sha256-ab',
          mimeType: 'image/png',
          sizeBytes: 3,
          data: new Uint8Array([1, 2, 255]),
        }),
      },
      { type: 'text', text: '</reported-content nonce="n1">' },
    ],
  },
};

describe('the round codec of a run record', () => {
  it('round-trips through JSON, results and media branded untrusted again', () => {
    const stored = encodeRound(ROUND);
    const decoded = decodeRound(JSON.parse(JSON.stringify(stored)) as NonNullable<typeof stored>);

    const [first, second] = decoded.toolMessage.content;
    expect(isUntrusted(first?.content)).toBe(true);
    expect(first && unwrapUntrusted(first.content)).toEqual({ content: 'hello', sizeBytes: 5 });
    expect(second).toMatchObject({ toolCallId: 'b', isError: true });
    const media = decoded.attachments?.content[1];
    expect(media?.type).toBe('media');
    if (media?.type !== 'media') return;
    expect(isUntrusted(media.media)).toBe(true);
    expect(unwrapUntrusted(media.media)).toMatchObject({
      handle: 'media://sha256-ab',
      sizeBytes: 3,
    });
    expect([...(unwrapUntrusted(media.media).data ?? [])]).toEqual([1, 2, 255]);
    expect(decoded.attachments?.content[0]).toEqual(ROUND.attachments?.content[0]);
  });

  it('keeps no round over the step cap: a rerun dispatches it again instead', () => {
    const huge: ToolCallRound = {
      toolMessage: { role: 'tool', content: [readResult('x'.repeat(MAX_STEP_RESULT_BYTES + 1))] },
    };

    expect(encodeRound(huge)).toBeUndefined();
  });
});
