import { unwrapUntrusted } from '@toolhost/core';
import { markUntrusted } from '@toolhost/core/host';
import type { LoopDispatchOutcome } from '@toolhost/core/loop';
import { describe, expect, it } from 'vitest';

import { decodeStepOutcome, encodeStepOutcome } from './step-outcome.js';

const outcome = (result: unknown, data?: Uint8Array): LoopDispatchOutcome => ({
  toolResult: markUntrusted({ type: 'tool_result' as const, result }),
  ...(data === undefined
    ? {}
    : {
        mediaAttachments: markUntrusted([
          {
            type: 'media' as const,
            handle: `media://sha256-${'a'.repeat(64)}`,
            mimeType: 'image/png',
            sizeBytes: data.byteLength,
            data,
          },
        ]),
      }),
});

describe('a dispatch step outcome', () => {
  it('round-trips through JSON: the result, the media with its bytes, branded untrusted again', () => {
    const data = new Uint8Array([137, 80, 78, 71, 0, 255]);
    const step = JSON.parse(JSON.stringify(encodeStepOutcome(outcome({ ok: 1 }, data), 1024)));

    const back = decodeStepOutcome(step);

    expect(unwrapUntrusted(back.toolResult)).toEqual({ type: 'tool_result', result: { ok: 1 } });
    const [media] =
      back.mediaAttachments === undefined ? [] : unwrapUntrusted(back.mediaAttachments);
    expect(media?.data).toEqual(data);
  });

  it('drops media bytes first when over the cap, keeping the handle', () => {
    const step = encodeStepOutcome(outcome('small', new Uint8Array(4096)), 1024);

    expect(step.media?.[0]).toMatchObject({ mimeType: 'image/png', sizeBytes: 4096 });
    expect(step.media?.[0]?.dataBase64).toBeUndefined();
    expect(step.oversized).toBeUndefined();
  });

  it('replaces a result over the cap by a fixed stand-in, so the step still settles', () => {
    const step = encodeStepOutcome(outcome('x'.repeat(5000)), 1024);

    expect(step.oversized).toEqual({ bytes: 5013, capBytes: 1024 });
    expect(String(step.result)).toContain('exceeds the durable step cap of 1024 bytes');
    expect(JSON.stringify(step).length).toBeLessThan(1024);
  });

  it('stands in for a result with no JSON form', () => {
    const step = encodeStepOutcome(outcome({ big: 1n }), 1024);

    expect(step.oversized).toEqual({ bytes: -1, capBytes: 1024 });
  });
});
