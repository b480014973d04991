import { mkdtemp, open, realpath, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { childPath, descriptorPath, hasDescriptorPaths } from './descriptor-path.js';

describe.runIf(hasDescriptorPaths)('descriptorPath', () => {
  let base = '';
  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-fd-')));
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  it('follows an open directory that was renamed', async () => {
    const handle = await open(base, 'r');
    const moved = `${base}-moved`;
    await rename(base, moved);
    try {
      expect(descriptorPath(handle.fd, base)).toBe(moved);
    } finally {
      await handle.close();
      await rename(moved, base);
    }
  });

  it('names a child of the open directory, never its path', async () => {
    const handle = await open(base, 'r');
    try {
      expect(childPath({ fd: handle.fd, path: '/nowhere' }, 'x')).toBe(
        `/proc/self/fd/${handle.fd}/x`,
      );
      expect(() => childPath({ fd: handle.fd, path: base }, '..')).toThrow();
      expect(() => childPath({ fd: handle.fd, path: base }, 'a/b')).toThrow();
    } finally {
      await handle.close();
    }
  });
});
