import { createHook } from 'node:async_hooks';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox } from '../fs/test-support/sandbox.js';
import { createOutputStore, SPILL_MAX_AGE_MS } from './create-output-store.js';

const LIMITS = { maxBytes: 10, maxLines: 2 };

describe('createOutputStore', () => {
  let stateDir = '';
  beforeEach(async () => {
    stateDir = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-spill-')));
  });
  afterEach(() => rm(stateDir, { recursive: true, force: true }));

  it('spills each result to its own owner-only file in the run directory', async () => {
    const store = await createOutputStore(stateDir, 'run-a');

    const first = await store.spill('héllo', LIMITS);
    const second = await store.spill('again', LIMITS);

    expect(first.byteLength).toBe(6);
    expect(first.ref).not.toBe(second.ref);
    expect(path.dirname(first.ref)).toBe(path.join(stateDir, 'spill', 'run-a'));
    expect(await readFile(first.ref, 'utf8')).toBe('héllo');
    expect((await stat(first.ref)).mode & 0o777).toBe(0o600);
    expect((await stat(store.directory)).mode & 0o777).toBe(0o700);
  });

  it('removes the run files on close', async () => {
    const store = await createOutputStore(stateDir, 'run-a');
    await store.spill('x', LIMITS);

    await store.close();

    expect(await readdir(path.join(stateDir, 'spill'))).toEqual([]);
  });

  it('sweeps other runs older than a day at start and keeps younger ones', async () => {
    const now = Date.now();
    for (const name of ['old-run', 'young-run'])
      await mkdir(path.join(stateDir, 'spill', name), { recursive: true });
    const old = (now - SPILL_MAX_AGE_MS - 60_000) / 1000;
    await utimes(path.join(stateDir, 'spill', 'old-run'), old, old);

    await createOutputStore(stateDir, 'run-b', now);

    expect((await readdir(path.join(stateDir, 'spill'))).sort()).toEqual(['run-b', 'young-run']);
  });

  // A FileHandle's open, write and close were one thread-pool hop each (and the text was walked
  // twice: once to count its bytes, once to encode them): create and write are the two left.
  it('spills with two fs requests, create and write, and counts the bytes it wrote', async () => {
    const store = await createOutputStore(stateDir, 'run-a');
    await store.spill('warm', LIMITS);
    const text = `é\u{1F600}\uD800${'x'.repeat(70_000)}\n`;
    const requests: string[] = [];
    const hook = createHook({
      init(_id, type) {
        if (type.startsWith('FSREQ') || type.startsWith('FILEHANDLE')) requests.push(type);
      },
    });
    hook.enable();
    let spilled;
    try {
      spilled = await store.spill(text, LIMITS);
    } finally {
      hook.disable();
    }

    expect(requests).toEqual(['FSREQCALLBACK', 'FSREQCALLBACK']);
    const written = await readFile(spilled.ref);
    expect(spilled.byteLength).toBe(written.byteLength);
    expect(written.toString('utf8')).toBe(text.replace('\uD800', '\uFFFD'));
    expect((await stat(spilled.ref)).mode & 0o777).toBe(0o600);
  });

  it('leaves no file behind when the quota refuses a spill', async () => {
    const store = await createOutputStore(stateDir, 'run-a', Date.now(), { maxBytesPerCall: 10 });

    // 4 code units, 12 bytes: past the budget only once encoded.
    await expect(store.spill('€€€€', LIMITS)).rejects.toMatchObject({
      reason: 'spill_quota_exceeded',
    });
    await expect(store.spill('x'.repeat(11), LIMITS)).rejects.toMatchObject({
      reason: 'spill_quota_exceeded',
    });
    expect(await readdir(store.directory)).toEqual([]);
  });

  it('refuses an aborted spill', async () => {
    const store = await createOutputStore(stateDir, 'run-a');
    const controller = new AbortController();
    controller.abort();

    await expect(store.spill('x', LIMITS, controller.signal)).rejects.toMatchObject({
      code: 'cancelled',
    });
  });
});

describe('spill files through the fs arm', () => {
  it('are readable and pageable in the default tier, never writable', async () => {
    const box = await createSandbox();
    try {
      const spilled = await box.host.outputStore?.spill('l0\nl1\nl2\nl3\n', LIMITS);
      const ref = spilled?.ref ?? '';

      const page = await box.fs.readFile({ path: ref, offset: 2, limit: 1 });
      const write = box.fs.writeFile({ path: ref, content: 'x' });
      const append = box.fs.writeFile({ path: ref, content: 'x', append: true });

      expect(page.content).toBe('l2\n');
      await expect(write).rejects.toMatchObject({ reason: 'protected_path' });
      await expect(append).rejects.toMatchObject({ reason: 'protected_path' });
      expect(await readFile(ref, 'utf8')).toBe('l0\nl1\nl2\nl3\n');
    } finally {
      await box.close();
    }
  });

  it('are readable only for this run: other state stays on the floor', async () => {
    const box = await createSandbox();
    try {
      const other = path.join(box.stateDir, 'spill', 'other-run');
      await mkdir(other);

      const attempt = box.fs.listDirectory({ path: other });

      await expect(attempt).rejects.toMatchObject({
        reason: expect.stringMatching(/protected_path|scope_escape/),
      });
    } finally {
      await box.close();
    }
  });
});
