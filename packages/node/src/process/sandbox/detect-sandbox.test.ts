import { copyFile, mkdtemp, readFile, rm, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BWRAP_CANDIDATES, probeSandbox } from './detect-sandbox.js';

describe.skipIf(process.platform !== 'linux')('probeSandbox', () => {
  let base = '';
  beforeEach(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'toolhost-probe-'));
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  it('finds bubblewrap, runs it with the real arguments and caches the verdict on disk', async () => {
    const verdict = await probeSandbox({ cacheDir: base });

    expect(verdict).toMatchObject({
      available: true,
      version: expect.stringMatching(/^bubblewrap /),
    });
    expect(BWRAP_CANDIDATES).toContain((verdict as { bwrap: string }).bwrap);
    const cached = JSON.parse(await readFile(path.join(base, 'sandbox-probe.json'), 'utf8')) as {
      verdict: unknown;
    };
    expect(cached.verdict).toEqual(verdict);
  });

  it('reports a missing binary as unavailable, never as working', async () => {
    expect(await probeSandbox({ bwrapPath: path.join(base, 'missing') })).toEqual({
      available: false,
      why: 'bwrap_not_found',
    });
  });

  it('reports a binary that refuses the real arguments as refused, and does not cache it', async () => {
    const fake = path.join(base, 'bwrap');
    await writeFile(
      fake,
      '#!/bin/sh\n[ "$1" = --version ] && echo "bubblewrap 9" && exit 0\nexit 1\n',
    );
    await chmod(fake, 0o755);

    expect(await probeSandbox({ bwrapPath: fake, cacheDir: base })).toEqual({
      available: false,
      why: 'bwrap_refused',
    });
    await expect(readFile(path.join(base, 'sandbox-probe.json'), 'utf8')).rejects.toThrow();
  });

  it('does not trust a cached verdict for another binary', async () => {
    const copy = path.join(base, 'bwrap-copy');
    await copyFile(BWRAP_CANDIDATES[0] ?? '/usr/bin/bwrap', copy);
    await chmod(copy, 0o755);
    await writeFile(
      path.join(base, 'sandbox-probe.json'),
      JSON.stringify({
        key: 'stale',
        verdict: { available: true, bwrap: copy, version: 'forged' },
      }),
    );

    const verdict = await probeSandbox({ bwrapPath: copy, cacheDir: base });

    expect(verdict).toMatchObject({ available: true });
    expect((verdict as { version: string }).version).not.toBe('forged');
  });
});
