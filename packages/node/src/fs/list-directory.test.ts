import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LIST_ENTRIES } from './list-directory.js';
import { createSandbox } from './test-support/sandbox.js';
import type { Sandbox } from './test-support/sandbox.js';

let box: Sandbox;

beforeAll(async () => {
  box = await createSandbox({}, async ({ root }) => {
    await mkdir(path.join(root, 'big'));
    for (let index = 0; index < MAX_LIST_ENTRIES + 5; index += 1)
      await writeFile(path.join(root, 'big', `${String(index).padStart(4, '0')}.txt`), '');
    await mkdir(path.join(root, 'small/inner'), { recursive: true });
    await writeFile(path.join(root, 'small/one.txt'), '12345');
    await writeFile(path.join(root, 'small/inner/two.txt'), '');
  });
});
afterAll(() => box.close());

describe('list_directory', () => {
  it('caps a listing and says it cut', async () => {
    const listing = await box.fs.listDirectory({ path: 'big' });

    expect(listing.entries).toHaveLength(MAX_LIST_ENTRIES);
    expect(listing.truncated).toBe(true);
  });

  it('lists only the children without recursive, with names relative to the root', async () => {
    const listing = await box.fs.listDirectory({ path: 'small' });

    expect(listing).toEqual({
      entries: [
        {
          name: 'small/inner',
          type: 'directory',
          sizeBytes: expect.any(Number),
          lastModified: expect.any(String),
        },
        { name: 'small/one.txt', type: 'file', sizeBytes: 5, lastModified: expect.any(String) },
      ],
    });
  });

  it('descends depth-first in name order with recursive', async () => {
    const listing = await box.fs.listDirectory({ path: 'small', recursive: true });

    expect(listing.entries.map((entry) => entry.name)).toEqual([
      'small/inner',
      'small/inner/two.txt',
      'small/one.txt',
    ]);
  });

  it('lists the run spill directory in the default tier', async () => {
    const spilled = await box.host.outputStore?.spill('spilled', { maxBytes: 1, maxLines: 1 });

    const listing = await box.fs.listDirectory({ path: path.dirname(spilled?.ref ?? '') });

    expect(listing.entries.map((entry) => entry.name)).toContain(spilled?.ref);
  });
});
