import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
  createToolRegistry,
  listDirectoryTool,
  readFileTool,
  writeFileTool,
  type ToolDispatchContext,
} from '@toolhost/core';

import { createNodeToolHost } from '../../packages/node/src/create-node-tool-host.js';
import { measureUs, type BenchRow } from '../bench-row.js';

const KIB = 1024;
const CONTEXT: ToolDispatchContext = {
  nodeId: 'bench',
  grantedToolIds: new Set(['read_file', 'write_file', 'list_directory']),
  config: {},
  toolPolicy: {},
  fsScope: 'sandboxed',
  gateApproved: false,
};
// Ceilings above the payload: the row then times the jail and the pipeline, not the spill.
const UNBOUNDED: ToolDispatchContext = {
  ...CONTEXT,
  limits: { maxBytes: 4 * KIB * KIB, maxLines: 1_000_000 },
};

/**
 * read_file / write_file / list_directory through registry + Node host against the bare
 * `fs.promises` call, on a temp tree: 4 KiB and 1 MiB files, 10 000 files in 100 directories.
 */
export async function run(): Promise<BenchRow[]> {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-bench-fs-')));
  const root = path.join(base, 'app');
  await mkdir(path.join(root, 'tree'), { recursive: true });
  await writeFile(path.join(root, 'small.txt'), 'a'.repeat(4 * KIB - 1) + '\n');
  await writeFile(path.join(root, 'large.txt'), `${'a'.repeat(KIB - 1)}\n`.repeat(KIB));
  for (let directory = 0; directory < 100; directory += 1) {
    const where = path.join(root, 'tree', `d${directory}`);
    await mkdir(where);
    await Promise.all(
      Array.from({ length: 100 }, (_unused, file) =>
        writeFile(path.join(where, `f${file}.txt`), 'x'),
      ),
    );
  }
  for (let directory = 0; directory < 10; directory += 1) {
    const where = path.join(root, 'small-tree', `d${directory}`);
    await mkdir(where, { recursive: true });
    await Promise.all(
      Array.from({ length: 95 }, (_unused, file) =>
        writeFile(path.join(where, `f${file}.txt`), 'x'),
      ),
    );
  }
  const { host, close } = await createNodeToolHost({ root, stateDir: path.join(base, 'state') });
  const fs = host.fs;
  const writeArm = fs?.writeFile;
  if (fs === undefined || writeArm === undefined) throw new Error('bench: no fs arm');
  const registry = createToolRegistry({
    tools: [readFileTool, writeFileTool, listDirectoryTool],
    host,
  });
  const call = (name: string, args: Record<string, unknown>, context = CONTEXT) =>
    registry.dispatch({ id: 'b', name, args }, context);
  const content4k = 'w'.repeat(4 * KIB);
  let sequence = 0;

  const cases: {
    name: string;
    subject: string;
    baseline: string;
    target?: string;
    iterations: number;
    subjectRun: () => Promise<unknown>;
    baselineRun: () => Promise<unknown>;
  }[] = [
    {
      name: 'fs read 4 KiB',
      subject: 'read_file via registry + host',
      baseline: 'fs.promises.readFile',
      target: '≤1.5x',
      iterations: 400,
      subjectRun: () => call('read_file', { path: 'small.txt' }),
      baselineRun: () => readFile(path.join(root, 'small.txt'), 'utf8'),
    },
    {
      name: 'fs read 4 KiB (arm only)',
      subject: 'host.fs.readFile',
      baseline: 'fs.promises.readFile',
      iterations: 400,
      subjectRun: () => fs.readFile({ path: 'small.txt' }),
      baselineRun: () => readFile(path.join(root, 'small.txt'), 'utf8'),
    },
    {
      name: 'fs read 1 MiB',
      subject: 'read_file via registry + host, limits above 1 MiB',
      baseline: 'fs.promises.readFile',
      target: '≤1.2x',
      iterations: 40,
      subjectRun: () => call('read_file', { path: 'large.txt' }, UNBOUNDED),
      baselineRun: () => readFile(path.join(root, 'large.txt'), 'utf8'),
    },
    {
      name: 'fs read 1 MiB (arm only)',
      subject: 'host.fs.readFile',
      baseline: 'fs.promises.readFile',
      iterations: 40,
      subjectRun: () => fs.readFile({ path: 'large.txt' }),
      baselineRun: () => readFile(path.join(root, 'large.txt'), 'utf8'),
    },
    {
      name: 'fs write 4 KiB',
      subject: 'write_file via registry + host (temp + rename)',
      baseline: 'fs.promises.writeFile',
      target: '≤2x',
      iterations: 200,
      subjectRun: () => call('write_file', { path: 'written.txt', content: content4k }),
      baselineRun: () => writeFile(path.join(root, 'baseline.txt'), content4k),
    },
    {
      name: 'fs write 4 KiB (arm only)',
      subject: 'host.fs.writeFile (temp + rename)',
      baseline: 'fs.promises.writeFile',
      iterations: 200,
      subjectRun: () => writeArm({ path: 'written.txt', content: content4k }),
      baselineRun: () => writeFile(path.join(root, 'baseline.txt'), content4k),
    },
    {
      name: 'fs write 4 KiB (design floor)',
      subject: 'bare open(wx) + write + close + rename',
      baseline: 'fs.promises.writeFile',
      iterations: 200,
      subjectRun: async () => {
        const temporary = path.join(root, `.floor-${(sequence += 1)}`);
        await writeFile(temporary, content4k, { flag: 'wx' });
        await rename(temporary, path.join(root, 'floor.txt'));
      },
      baselineRun: () => writeFile(path.join(root, 'baseline.txt'), content4k),
    },
    {
      name: 'fs list 10 000 files',
      subject: 'list_directory recursive via registry + host (capped at 1000)',
      baseline: 'fs.promises.readdir recursive',
      target: '≤2x',
      iterations: 10,
      subjectRun: () => call('list_directory', { path: 'tree', recursive: true }),
      baselineRun: () => readdir(path.join(root, 'tree'), { recursive: true }),
    },
    {
      name: 'fs list 960 files (under the cap)',
      subject: 'list_directory recursive via registry + host (lstat per entry)',
      baseline: 'fs.promises.readdir recursive, withFileTypes',
      iterations: 20,
      subjectRun: () => call('list_directory', { path: 'small-tree', recursive: true }, UNBOUNDED),
      baselineRun: () =>
        readdir(path.join(root, 'small-tree'), { recursive: true, withFileTypes: true }),
    },
    {
      name: 'fs list 960 files (arm only)',
      subject: 'host.fs.listDirectory recursive',
      baseline: 'fs.promises.readdir recursive, withFileTypes',
      iterations: 20,
      subjectRun: () => fs.listDirectory({ path: 'small-tree', recursive: true }),
      baselineRun: () =>
        readdir(path.join(root, 'small-tree'), { recursive: true, withFileTypes: true }),
    },
    // Last: it spills ~600 MiB over the run, and the writeback that follows slows any write row
    // measured after it.
    {
      name: 'fs read 1 MiB (default limits: preview + spill)',
      subject: 'read_file via registry + host',
      baseline: 'fs.promises.readFile',
      iterations: 40,
      subjectRun: () => call('read_file', { path: 'large.txt' }),
      baselineRun: () => readFile(path.join(root, 'large.txt'), 'utf8'),
    },
  ];

  const rows: BenchRow[] = [];
  try {
    for (const entry of cases) {
      // Interleave and keep each side's best median, so drift on a shared machine hits both.
      let subjectUs = Infinity;
      let baselineUs = Infinity;
      for (let pass = 0; pass < 3; pass += 1) {
        baselineUs = Math.min(
          baselineUs,
          await measureUs(entry.baselineRun, { iterations: entry.iterations }),
        );
        subjectUs = Math.min(
          subjectUs,
          await measureUs(entry.subjectRun, { iterations: entry.iterations }),
        );
      }
      rows.push({
        name: entry.name,
        subject: entry.subject,
        baseline: entry.baseline,
        subjectUs,
        baselineUs,
        ratio: subjectUs / baselineUs,
        ...(entry.target === undefined ? {} : { target: entry.target }),
      });
    }
  } finally {
    await close();
    await rm(base, { recursive: true, force: true });
  }
  return rows;
}
