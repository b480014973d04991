import { readFileSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, snapshotTree } from './test-support/sandbox.js';
import type { Sandbox } from './test-support/sandbox.js';

interface PathCase {
  readonly id: string;
  readonly path: string;
  readonly op: 'read' | 'write' | 'list';
  readonly expect: 'deny' | 'allow';
  readonly class: string;
  readonly platform?: string;
  readonly setup?: readonly {
    type: 'file' | 'dir' | 'symlink';
    path: string;
    target?: string;
    content?: string;
  }[];
}

// The repository's copy of the shared corpus (test/corpus.test.ts keeps it equal).
const here = path.dirname(fileURLToPath(import.meta.url));
const cases = JSON.parse(
  readFileSync(path.resolve(here, '../../../../test/corpus/paths.json'), 'utf8'),
) as PathCase[];
const posixCases = cases.filter((entry) => entry.platform !== 'win32');

describe('paths.json corpus', () => {
  let box: Sandbox | undefined;
  afterEach(async () => {
    await box?.close();
    box = undefined;
  });

  it.each(posixCases.map((entry) => [entry.id, entry.op, entry.expect, entry] as const))(
    '%s: %s is %s',
    async (_id, _op, _expected, entry) => {
      box = await createSandbox({}, async ({ sandbox, root, outside }) => {
        for (const step of entry.setup ?? []) {
          const target = path.resolve(root, expand(step.path, { sandbox, root, outside }));
          await mkdir(step.type === 'dir' ? target : path.dirname(target), { recursive: true });
          if (step.type === 'file') await writeFile(target, step.content ?? 'OUTSIDE-SECRET');
          if (step.type === 'symlink')
            await symlink(expand(step.target ?? '', { sandbox, root, outside }), target);
        }
      });
      const before = await snapshotTree(box.sandbox, [box.root, box.stateDir]);
      const requested = expand(entry.path, box);

      const attempt =
        entry.op === 'read'
          ? box.fs.readFile({ path: requested })
          : entry.op === 'write'
            ? box.fs.writeFile({ path: requested, content: 'WRITTEN' })
            : box.fs.listDirectory({ path: requested });

      if (entry.expect === 'allow') await expect(attempt).resolves.toBeDefined();
      else
        await expect(attempt).rejects.toMatchObject({
          code: expect.stringMatching(/^tool_(denied|failed)$/),
        });
      expect(await snapshotTree(box.sandbox, [box.root, box.stateDir])).toEqual(before);
    },
  );
});

function expand(value: string, paths: { sandbox: string; root: string; outside: string }): string {
  return value
    .replaceAll('${SANDBOX}', paths.sandbox)
    .replaceAll('${ROOT}', paths.root)
    .replaceAll('${OUTSIDE}', paths.outside);
}
