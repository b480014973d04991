import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { createToolRegistry, type ToolDispatchContext } from '@toolhost/core';
import { editFileTool } from '@toolhost/core/tools';

import { createNodeToolHost } from '../../packages/node/src/create-node-tool-host.js';
import type { BenchRow } from '../bench-row.js';
import { sampleInterleaved, type Sample } from '../sample-interleaved.js';

const KIB = 1024;
const CONTEXT: ToolDispatchContext = {
  nodeId: 'bench',
  grantedToolIds: new Set(['edit_file']),
  config: {},
  toolPolicy: {},
  fsScope: 'sandboxed',
  gateApproved: false,
};

/**
 * `edit_file` of one line in the middle of a 1 MiB file (via registry + Node host: jailed read,
 * in-memory edit, hunk diff, temp file + rename after the unchanged check) against a raw
 * `readFile` + `String.replace` + `writeFile` of the same line in a twin file, sampled in one
 * interleaved loop (min and median rows). Each run flips the line, so every edit changes it.
 */
export async function runEditRows(): Promise<BenchRow[]> {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-bench-edit-')));
  const root = path.join(base, 'app');
  try {
    await mkdir(root);
    // 1 MiB of 64-byte lines, one of them the line every run edits.
    const lines = Array.from({ length: (KIB * KIB) / 64 }, (_unused, index) =>
      `  const value${index} = compute(input, ${index});`.padEnd(63, ' '),
    );
    lines[lines.length / 2] = '  const target = "A";'.padEnd(63, ' ');
    const content = `${lines.join('\n')}\n`;
    await writeFile(path.join(root, 'subject.ts'), content);
    await writeFile(path.join(root, 'baseline.ts'), content);
    const { host, close } = await createNodeToolHost({ root, stateDir: path.join(base, 'state') });
    try {
      const registry = createToolRegistry({ tools: [editFileTool], host });
      let subjectValue = 'A';
      let baselineValue = 'A';
      const samples: Record<'edit' | 'raw', Sample> = await sampleInterleaved(
        {
          edit: {
            run: async () => {
              const next = subjectValue === 'A' ? 'B' : 'A';
              const outcome = await registry.dispatch(
                {
                  id: 'b',
                  name: 'edit_file',
                  args: {
                    path: 'subject.ts',
                    edits: [
                      {
                        oldText: `const target = "${subjectValue}";`,
                        newText: `const target = "${next}";`,
                      },
                    ],
                  },
                },
                CONTEXT,
              );
              if ((outcome.output as { replacements: number }).replacements !== 1)
                throw new Error('bench: edit_file missed its line');
              subjectValue = next;
            },
          },
          raw: {
            run: async () => {
              const next = baselineValue === 'A' ? 'B' : 'A';
              const file = path.join(root, 'baseline.ts');
              const text = await readFile(file, 'utf8');
              await writeFile(
                file,
                text.replace(`const target = "${baselineValue}";`, `const target = "${next}";`),
              );
              baselineValue = next;
            },
          },
        },
        { iterations: 60, warmup: 5 },
      );
      return (['median', 'min'] as const).map((statistic) => {
        const of = (sample: Sample) => (statistic === 'median' ? sample.medianUs : sample.minUs);
        return {
          name: `workspace: edit one line of 1 MiB (wall ${statistic})`,
          subject: 'edit_file via registry + host',
          baseline: 'readFile + replace + writeFile',
          subjectUs: of(samples.edit),
          baselineUs: of(samples.raw),
          ratio: of(samples.edit) / of(samples.raw),
          target: '≤2x',
        };
      });
    } finally {
      await close();
    }
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
