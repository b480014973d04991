import { lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, readdir, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { FsListRequest } from '@toolhost/core/host';

import { createNodeToolHost } from '../../packages/node/src/create-node-tool-host.js';
import type { BenchRow } from '../bench-row.js';
import { interleavedRows, sampleInterleaved } from '../sample-interleaved.js';

/**
 * `list_directory` paged to its end (every page, cursor after cursor) through the Node host's
 * arm, on one flat directory of 10 000 and one of 100 000 empty files, against the raw work of
 * listing them once: `readdir` with types plus one `lstatSync` per entry (what a listing's
 * `sizeBytes`/`lastModified` need). Issue 38: before the snapshot every page re-read and
 * re-sorted the directory (100 000 entries: 18 s against 76 ms).
 */
export async function runListPageRows(): Promise<BenchRow[]> {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-bench-pages-')));
  const root = path.join(base, 'app');
  try {
    const sizes = [10_000, 100_000] as const;
    for (const size of sizes) makeFlat(path.join(root, `flat-${size}`), size);
    const { host, close } = await createNodeToolHost({ root, stateDir: path.join(base, 'state') });
    try {
      const fs = host.fs;
      if (fs === undefined) throw new Error('bench: no fs arm');
      const everyPage = async (request: FsListRequest): Promise<void> => {
        let listing = await fs.listDirectory(request);
        while (listing.cursor !== undefined)
          listing = await fs.listDirectory({ ...request, cursor: listing.cursor });
      };
      const rows: BenchRow[] = [];
      for (const size of sizes) {
        const where = `flat-${size}`;
        const directory = path.join(root, where);
        const sample = await sampleInterleaved(
          {
            pages: { run: () => everyPage({ path: where }) },
            raw: {
              run: async () => {
                for (const entry of await readdir(directory, { withFileTypes: true }))
                  lstatSync(path.join(directory, entry.name));
              },
            },
          },
          size > 10_000 ? { iterations: 8, warmup: 2 } : { iterations: 30, warmup: 5 },
        );
        rows.push(
          ...interleavedRows({
            label: `fs list every page of ${size.toLocaleString('en-US').replace(/,/g, ' ')} entries`,
            subject: `host.fs.listDirectory, ${size / 1000} pages by cursor`,
            baseline: 'fs.promises.readdir withFileTypes + lstatSync per entry',
            subjectSample: sample.pages,
            baselineSample: sample.raw,
            target: '≤3x',
          }),
        );
      }
      return rows;
    } finally {
      await close();
    }
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

// Synchronous and empty: 100 000 creates in a few seconds.
function makeFlat(where: string, files: number): void {
  mkdirSync(where, { recursive: true });
  for (let file = 0; file < files; file += 1)
    writeFileSync(path.join(where, `f${String(file).padStart(6, '0')}.txt`), '');
}
