import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createMediaStore, type NodeMediaStore } from '@toolhost/node/stores';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toMediaContent } from './to-media-content.js';

const BYTES = new Uint8Array([0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4]);

describe('toMediaContent with a real media store', () => {
  let stateDir = '';
  let store: NodeMediaStore;
  beforeEach(async () => {
    stateDir = await mkdtemp(path.join(tmpdir(), 'toolhost-media-content-'));
    store = await createMediaStore(stateDir, 'run-1');
  });
  afterEach(async () => {
    await store.close();
    await rm(stateDir, { recursive: true, force: true });
  });

  it('reads a handle-only part stored for this scope and sends it', async () => {
    const part = await store.put(BYTES, { mimeType: 'audio/wav', scopes: ['workspace:a'] });

    const content = await toMediaContent([part], { store, scope: 'workspace:a', maxBytes: 64 });

    expect(content).toEqual([
      { type: 'audio', data: Buffer.from(BYTES).toString('base64'), mimeType: 'audio/wav' },
    ]);
  });

  it.each([
    ['another scope', 'workspace:b'],
    ['no scope at all', undefined],
  ])('never reads a handle stored for %s', async (_case, scope) => {
    const part = await store.put(BYTES, { mimeType: 'audio/wav', scopes: ['workspace:a'] });

    const content = await toMediaContent([part], {
      store,
      ...(scope === undefined ? {} : { scope }),
      maxBytes: 64,
    });

    expect(content).toEqual([
      {
        type: 'text',
        text: `[media ${part.handle} (audio/wav, 8 bytes) not sent: not readable in this session]`,
      },
    ]);
  });

  it('costs the media, not the result, when the store fails', async () => {
    const part = await store.put(BYTES, { mimeType: 'audio/wav', scopes: ['workspace:a'] });
    await rm(path.join(stateDir, 'media'), { recursive: true, force: true });

    const content = await toMediaContent([part], { store, scope: 'workspace:a', maxBytes: 64 });

    expect(content).toHaveLength(1);
    expect(content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/not sent/) });
  });
});
