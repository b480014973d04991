import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSandbox, snapshotTree } from './test-support/sandbox.js';

const segment = fc.constantFrom('a', 'b', 'c', 'l');
const entry = fc.record({
  kind: fc.constantFrom('dir', 'file', 'symlink'),
  at: fc.array(segment, { minLength: 1, maxLength: 3 }),
  // Relative climbs, absolute escapes, in-root hops, dangling and self references.
  target: fc.constantFrom(
    '..',
    '../..',
    '../../outside',
    '@outside',
    '@outside/secret.txt',
    'a',
    'b/c',
    '/',
    '.',
    'a/../..',
    'zz',
    'l',
  ),
});
const request = fc.record({
  absolute: fc.boolean(),
  segments: fc.array(fc.constantFrom('a', 'b', 'c', 'l', '..', '.', 'secret.txt'), {
    minLength: 0,
    maxLength: 5,
  }),
});

describe('the jail over random trees with random symlinks', () => {
  it('never reads, lists or writes anything outside the root', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(entry, { maxLength: 12 }),
        fc.array(request, { minLength: 1, maxLength: 8 }),
        async (entries, requests) => {
          const box = await createSandbox({}, async ({ root, outside }) => {
            await writeFile(path.join(outside, 'secret.txt'), 'OUTSIDE-SECRET');
            for (const { kind, at, target } of entries) {
              const where = path.join(root, ...at);
              await mkdir(path.dirname(where), { recursive: true }).catch(() => undefined);
              const created =
                kind === 'dir'
                  ? mkdir(where)
                  : kind === 'file'
                    ? writeFile(where, 'INSIDE', { flag: 'wx' })
                    : symlink(target.replace('@outside', outside), where);
              // Collisions (a file where a directory was wanted) just shape the tree differently.
              await created.catch(() => undefined);
            }
          });
          try {
            const before = await snapshotTree(box.sandbox, [box.root, box.stateDir]);
            for (const { absolute, segments } of requests) {
              const requested = absolute ? path.join(box.root, ...segments) : segments.join('/');
              const read = await box.fs.readFile({ path: requested }).catch(() => undefined);
              expect(read?.content ?? '').not.toContain('OUTSIDE');
              const glob = await box.fs
                .readFile({ path: `${requested || '.'}/**`, glob: true })
                .catch(() => undefined);
              expect(glob?.content ?? '').not.toContain('OUTSIDE');
              const listing = await box.fs
                .listDirectory({ path: requested, recursive: true })
                .catch(() => undefined);
              for (const { name } of listing?.entries ?? [])
                expect(name).not.toMatch(/^(\/|\.\.(\/|$))/);
              await box.fs
                .writeFile({ path: `${requested}/w.txt`, content: 'W', createDirs: true })
                .catch(() => undefined);
              await box.fs
                .writeFile({ path: requested, content: 'W', append: true })
                .catch(() => undefined);
            }
            expect(await snapshotTree(box.sandbox, [box.root, box.stateDir])).toEqual(before);
          } finally {
            await box.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
