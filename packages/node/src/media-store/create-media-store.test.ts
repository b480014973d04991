import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, realpath, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMediaStore, MEDIA_MAX_AGE_MS } from './create-media-store.js';

const BYTES = new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7]);
const HEX = createHash('sha256').update(BYTES).digest('hex');

describe('createMediaStore', () => {
  let stateDir = '';
  beforeEach(async () => {
    stateDir = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-media-')));
  });
  afterEach(() => rm(stateDir, { recursive: true, force: true }));

  it('stores bytes under their sha256 handle', async () => {
    const store = await createMediaStore(stateDir, 'run-1');

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
    const store = await createMediaStore(stateDir, 'run-1');

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
    const store = await createMediaStore(stateDir, 'run-1');
    await store.put(BYTES, { mimeType: 'image/png', scopes: ['a'] });

    expect(await store.stat(handle)).toBeUndefined();
  });

  it('reads an inclusive byte range', async () => {
    const store = await createMediaStore(stateDir, 'run-1');
    const { handle } = await store.put(BYTES, { mimeType: 'image/png', scopes: [] });

    expect([...(await store.read(handle, { start: 2, end: 4 }))]).toEqual([2, 3, 4]);
  });

  it.each([
    ['end past the object', { start: 0, end: 8 }],
    ['end before start', { start: 3, end: 2 }],
    ['a negative start', { start: -1, end: 2 }],
  ])('refuses %s', async (_label, range) => {
    const store = await createMediaStore(stateDir, 'run-1');
    const { handle } = await store.put(BYTES, { mimeType: 'image/png', scopes: [] });

    await expect(store.read(handle, range)).rejects.toMatchObject({ reason: 'invalid_range' });
  });

  describe('the sweep with the run', () => {
    const OTHER = new Uint8Array([9, 9, 9]);
    const objects = async () =>
      (await readdir(path.join(stateDir, 'media')))
        .filter((name) => name.endsWith('.bin') || name.endsWith('.json'))
        .sort();

    it('deletes on close what only this run put', async () => {
      const store = await createMediaStore(stateDir, 'run-1');
      const { handle } = await store.put(BYTES, { mimeType: 'image/png', scopes: ['a'] });

      await store.close();
      await store.close();

      expect(await objects()).toEqual([]);
      expect(await store.stat(handle)).toBeUndefined();
      expect(await readdir(path.join(stateDir, 'media', 'refs'))).toEqual([]);
    });

    it('keeps what another open run also put, until that run closes too', async () => {
      const first = await createMediaStore(stateDir, 'run-1');
      const second = await createMediaStore(stateDir, 'run-2');
      const { handle } = await first.put(BYTES, { mimeType: 'image/png', scopes: ['a'] });
      await second.put(BYTES, { mimeType: 'image/png', scopes: ['b'] });
      await second.put(OTHER, { mimeType: 'image/png', scopes: ['b'] });

      await first.close();

      expect(await first.stat(handle)).toMatchObject({ allowedScopes: ['a', 'b'] });
      await second.close();
      expect(await objects()).toEqual([]);
    });

    it('leaves alone objects this run never put', async () => {
      const first = await createMediaStore(stateDir, 'run-1');
      const second = await createMediaStore(stateDir, 'run-2');
      await second.put(OTHER, { mimeType: 'image/png', scopes: ['b'] });

      await first.close();

      expect(await objects()).toHaveLength(2);
    });

    it('refuses a put after close instead of storing an unreferenced object', async () => {
      const store = await createMediaStore(stateDir, 'run-1');
      await store.close();

      await expect(
        store.put(BYTES, { mimeType: 'image/png', scopes: ['a'] }),
      ).rejects.toMatchObject({ reason: 'store_closed' });
      expect(await objects()).toEqual([]);
    });

    it('on creation drops a day-old run that never closed and its orphaned objects', async () => {
      const crashed = await createMediaStore(stateDir, 'crashed');
      await crashed.put(BYTES, { mimeType: 'image/png', scopes: ['a'] });
      const alsoCrashed = await createMediaStore(stateDir, 'also-crashed');
      await alsoCrashed.put(OTHER, { mimeType: 'image/png', scopes: ['b'] });
      const media = path.join(stateDir, 'media');
      const old = new Date(Date.now() - MEDIA_MAX_AGE_MS - 60_000);
      for (const name of await readdir(media)) await utimes(path.join(media, name), old, old);
      await utimes(path.join(media, 'refs', 'crashed'), old, old);
      await utimes(path.join(media, 'refs', 'also-crashed'), old, old);
      // A recent unreferenced object (another host mid-put) is not yet an orphan.
      await writeFile(path.join(media, `${'e'.repeat(64)}.bin`), 'x');
      await mkdir(path.join(media, 'refs', 'fresh'));

      await createMediaStore(stateDir, 'run-3');

      expect(await readdir(path.join(media, 'refs'))).toEqual(
        expect.arrayContaining(['fresh', 'run-3']),
      );
      expect(await readdir(path.join(media, 'refs'))).not.toContain('crashed');
      expect(await objects()).toEqual([`${'e'.repeat(64)}.bin`]);
    });
  });
});
