import { mkdir, mkdtemp, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { createToolRegistry, type ToolDispatchContext, type ToolRegistry } from '@toolhost/core';
import { listDirectoryTool, readFileTool, writeFileTool } from '@toolhost/core/tools';

import { createNodeToolHost } from '../../packages/node/src/create-node-tool-host.js';
import type { BenchRow } from '../bench-row.js';
import { interleavedRows, sampleInterleaved } from '../sample-interleaved.js';
import { runListPageRows } from './list-pages.js';
import { runListRows } from './list.js';

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

/** One comparison: both sides run alternately (see `sampleInterleaved`), `iterations` each. */
interface Case {
  readonly label: string;
  readonly subject: string;
  readonly baseline: string;
  readonly target?: string;
  readonly iterations: number;
  readonly subjectRun: () => Promise<unknown>;
  readonly baselineRun: () => Promise<unknown>;
}

/** A temp root with a 4 KiB and a 1 MiB text file, and a registry + Node host over it. */
interface Fixture {
  readonly root: string;
  readonly host: Awaited<ReturnType<typeof createNodeToolHost>>['host'];
  readonly registry: ToolRegistry;
  call(
    name: string,
    args: Record<string, unknown>,
    context?: ToolDispatchContext,
  ): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * read_file / write_file through registry + Node host (and the arm alone) against the bare
 * `fs.promises` call: 4 KiB and 1 MiB files, each pair sampled interleaved (min and median
 * rows). The listing rows are `./list.ts`; the spill row runs last (`runLast`).
 */
export async function run(): Promise<BenchRow[]> {
  const fixture = await createFixture();
  const { root, call } = fixture;
  const fs = fixture.host.fs;
  const writeArm = fs?.writeFile;
  if (fs === undefined || writeArm === undefined) throw new Error('bench: no fs arm');
  const content4k = 'w'.repeat(4 * KIB);
  let sequence = 0;
  const readSmall = () => readFile(path.join(root, 'small.txt'), 'utf8');
  const readLarge = () => readFile(path.join(root, 'large.txt'), 'utf8');
  const writeBaseline = () => writeFile(path.join(root, 'baseline.txt'), content4k);

  const cases: Case[] = [
    {
      label: 'fs read 4 KiB',
      subject: 'read_file via registry + host',
      baseline: 'fs.promises.readFile',
      target: '≤1.15x',
      iterations: 2000,
      subjectRun: () => call('read_file', { path: 'small.txt' }),
      baselineRun: readSmall,
    },
    {
      label: 'fs read 4 KiB (arm only)',
      subject: 'host.fs.readFile',
      baseline: 'fs.promises.readFile',
      target: '≤1.10x',
      iterations: 2000,
      subjectRun: () => fs.readFile({ path: 'small.txt' }),
      baselineRun: readSmall,
    },
    {
      label: 'fs read 1 MiB',
      subject: 'read_file via registry + host, limits above 1 MiB',
      baseline: 'fs.promises.readFile',
      target: '≤1.10x',
      iterations: 200,
      subjectRun: () => call('read_file', { path: 'large.txt' }, UNBOUNDED),
      baselineRun: readLarge,
    },
    {
      label: 'fs read 1 MiB (arm only)',
      subject: 'host.fs.readFile',
      baseline: 'fs.promises.readFile',
      target: '≤1.0x',
      iterations: 200,
      subjectRun: () => fs.readFile({ path: 'large.txt' }),
      baselineRun: readLarge,
    },
    {
      label: 'fs write 4 KiB',
      subject: 'write_file via registry + host (temp + rename)',
      baseline: 'fs.promises.writeFile',
      target: '≤2x',
      iterations: 500,
      subjectRun: () => call('write_file', { path: 'written.txt', content: content4k }),
      baselineRun: writeBaseline,
    },
    {
      label: 'fs write 4 KiB (arm only)',
      subject: 'host.fs.writeFile (temp + rename)',
      baseline: 'fs.promises.writeFile',
      iterations: 500,
      subjectRun: () => writeArm({ path: 'written.txt', content: content4k }),
      baselineRun: writeBaseline,
    },
    {
      label: 'fs write 4 KiB (design floor)',
      subject: 'bare open(wx) + write + close + rename',
      baseline: 'fs.promises.writeFile',
      iterations: 500,
      subjectRun: async () => {
        const temporary = path.join(root, `.floor-${(sequence += 1)}`);
        await writeFile(temporary, content4k, { flag: 'wx' });
        await rename(temporary, path.join(root, 'floor.txt'));
      },
      baselineRun: writeBaseline,
    },
  ];

  const rows: BenchRow[] = [];
  try {
    for (const entry of cases) rows.push(...(await measure(entry)));
  } finally {
    await fixture.close();
  }
  return [...rows, ...(await runListRows()), ...(await runListPageRows())];
}

/**
 * The spill row, after every bench's `run`: each call spills 1 MiB, and the writeback that
 * follows would slow any row measured after it.
 */
export async function runLast(): Promise<BenchRow[]> {
  const fixture = await createFixture();
  try {
    return await measure({
      label: 'fs read 1 MiB (default limits: preview + spill)',
      subject: 'read_file via registry + host',
      baseline: 'fs.promises.readFile',
      target: '≤2x',
      iterations: 200,
      subjectRun: () => fixture.call('read_file', { path: 'large.txt' }),
      baselineRun: () => readFile(path.join(fixture.root, 'large.txt'), 'utf8'),
    });
  } finally {
    await fixture.close();
  }
}

async function measure(entry: Case): Promise<BenchRow[]> {
  const samples = await sampleInterleaved(
    {
      subject: { run: async () => void (await entry.subjectRun()) },
      baseline: { run: async () => void (await entry.baselineRun()) },
    },
    { iterations: entry.iterations, warmup: Math.ceil(entry.iterations / 10) },
  );
  return interleavedRows({
    label: entry.label,
    subject: entry.subject,
    baseline: entry.baseline,
    subjectSample: samples.subject,
    baselineSample: samples.baseline,
    ...(entry.target === undefined ? {} : { target: entry.target }),
  });
}

async function createFixture(): Promise<Fixture> {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-bench-fs-')));
  const root = path.join(base, 'app');
  await mkdir(root, { recursive: true });
  await writeFile(path.join(root, 'small.txt'), 'a'.repeat(4 * KIB - 1) + '\n');
  await writeFile(path.join(root, 'large.txt'), `${'a'.repeat(KIB - 1)}\n`.repeat(KIB));
  const handle = await createNodeToolHost({ root, stateDir: path.join(base, 'state') });
  const registry = createToolRegistry({
    tools: [readFileTool, writeFileTool, listDirectoryTool],
    host: handle.host,
  });
  return {
    root,
    host: handle.host,
    registry,
    call: (name, args, context = CONTEXT) => registry.dispatch({ id: 'b', name, args }, context),
    async close() {
      await handle.close();
      await rm(base, { recursive: true, force: true });
    },
  };
}
