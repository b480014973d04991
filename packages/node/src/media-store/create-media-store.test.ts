import { createHash } from 'node:crypto';
import { mkdtemp, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMediaStore } from './create-media-store.js';

const BYTES = new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7]);
const HEX = createHash('sha256').update(BYTES).digest('hex');

describe('createMediaStore', () => {
  let stateDir = '';
  beforeEach(async () => {
    stateDir = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-media-')));
  });
  afterEach(() => rm(stateDir, { recursive: true, force: true }));

  it('stores bytes under their sha256 handle', async () => {
    const store = await createMediaStore(stateDir);

    const part = await store.put(BYTES, { mimeType: 'image/png', scopes: ['a'] });

    expect(part).toEqual({
      type: 'media',
      handle: `media://sha256-${HEX}`,
      mimeType: 'image/png',
      sizeBytes: 8,
    });
    expect((await stat(path.join(stateDir, 'media', `${HEX}.bin`))).mode & 0o777).toBe(0o600);
  });

  it('merges the allowed scopes of the same bytes stored twice', async () => {
    const store = await createMediaStore(stateDir);

    await Promise.all([
      store.put(BYTES, { mimeType: 'image/png', scopes: ['b'] }),
      store.put(BYTES, { mimeType: 'image/png', scopes: ['a'] }),
    ]);

    expect(await store.stat(`media://sha256-${HEX}`)).toEqual({
      handle: `media://sha256-${HEX}`,
      mimeType: 'image/png',
      sizeBytes: 8,
      allowedScopes: ['a', 'b'],
    });
  });

  it.each([
    ['an unknown hash', `media://sha256-${'0'.repeat(64)}`],
    ['a malformed handle', 'media://sha256-../../etc/passwd'],
    ['an uppercase hash', `media://sha256-${HEX.toUpperCase()}`],
  ])('knows nothing of %s', async (_label, handle) => {
    const store = await createMediaStore(stateDir);
    await store.put(BYTES, { mimeType: 'image/png', scopes: ['a'] });

    expect(await store.stat(handle)).toBeUndefined();
  });

  it('reads an inclusive byte range', async () => {
    const store = await createMediaStore(stateDir);
    const { handle } = await store.put(BYTES, { mimeType: 'image/png', scopes: [] });

    expect([...(await store.read(handle, { start: 2, end: 4 }))]).toEqual([2, 3, 4]);
  });

  it.each([
    ['end past the object', { start: 0, end: 8 }],
    ['end before start', { start: 3, end: 2 }],
    ['a negative start', { start: -1, end: 2 }],
  ])('refuses %s', async (_label, range) => {
    const store = await createMediaStore(stateDir);
    const { handle } = await store.put(BYTES, { mimeType: 'image/png', scopes: [] });

    await expect(store.read(handle, range)).rejects.toMatchObject({ reason: 'invalid_range' });
  });
});
