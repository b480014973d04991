import { mkdir, mkdtemp, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { createToolRegistry, type ToolDispatchContext } from '@toolhost/core';
import { listDirectoryTool } from '@toolhost/core/tools';

import { createNodeToolHost } from '../../packages/node/src/create-node-tool-host.js';
import { setListStatSource } from '../../packages/node/src/fs/list-stat-source.js';
import type { BenchRow } from '../bench-row.js';
import { interleavedRows, sampleInterleaved } from '../sample-interleaved.js';

const CONTEXT: ToolDispatchContext = {
  nodeId: 'bench',
  grantedToolIds: new Set(['list_directory']),
  config: {},
  toolPolicy: {},
  fsScope: 'sandboxed',
  gateApproved: false,
};
// Ceilings above the payload: the under-cap rows then time the listing, not the spill.
const UNBOUNDED: ToolDispatchContext = {
  ...CONTEXT,
  limits: { maxBytes: 16 * 1024 * 1024, maxLines: 1_000_000 },
};

/**
 * `list_directory` recursive through registry + Node host (and the arm alone) against the bare
 * `fs.promises.readdir`, on 10 000 files in 100 directories (capped at 1000 entries) and 960
 * files in 10 directories (under the cap, every entry `lstat`ed), each pair sampled interleaved
 * (min and median rows). The arm runs with each stat source: the fs-at addon's batched `fstatat`
 * (the default, where it is built) and Node's `lstat` through procfs (the fallback).
 */
export async function runListRows(): Promise<BenchRow[]> {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-bench-list-')));
  const root = path.join(base, 'app');
  try {
    await makeTree(path.join(root, 'tree'), 100, 100);
    await makeTree(path.join(root, 'small-tree'), 10, 95);
    const { host, close } = await createNodeToolHost({ root, stateDir: path.join(base, 'state') });
    try {
      const fs = host.fs;
      if (fs === undefined) throw new Error('bench: no fs arm');
      const registry = createToolRegistry({ tools: [listDirectoryTool], host });
      const list = async (where: string, context: ToolDispatchContext) => {
        await registry.dispatch(
          { id: 'b', name: 'list_directory', args: { path: where, recursive: true } },
          context,
        );
      };
      const readdirTyped = async (where: string) => {
        await readdir(path.join(root, where), { recursive: true, withFileTypes: true });
      };

      const capped = await sampleInterleaved(
        {
          registry: { run: () => list('tree', CONTEXT) },
          readdir: {
            run: async () => {
              await readdir(path.join(root, 'tree'), { recursive: true });
            },
          },
        },
        { iterations: 30, warmup: 5 },
      );
      const under = await sampleInterleaved(
        {
          registry: { run: () => list('small-tree', UNBOUNDED) },
          arm: {
            run: async () => {
              await fs.listDirectory({ path: 'small-tree', recursive: true });
            },
          },
          armNode: {
            run: async () => {
              setListStatSource('node');
              try {
                await fs.listDirectory({ path: 'small-tree', recursive: true });
              } finally {
                setListStatSource('native');
              }
            },
          },
          readdir: { run: () => readdirTyped('small-tree') },
        },
        { iterations: 60, warmup: 10 },
      );
      return [
        ...interleavedRows({
          label: 'fs list 10 000 files',
          subject: 'list_directory recursive via registry + host (capped at 1000)',
          baseline: 'fs.promises.readdir recursive',
          subjectSample: capped.registry,
          baselineSample: capped.readdir,
          target: '≤2x',
        }),
        ...interleavedRows({
          label: 'fs list 960 files (under the cap)',
          subject: 'list_directory recursive via registry + host (lstat per entry)',
          baseline: 'fs.promises.readdir recursive, withFileTypes',
          subjectSample: under.registry,
          baselineSample: under.readdir,
          target: '≤3x',
        }),
        ...interleavedRows({
          label: 'fs list 960 files (arm only)',
          subject: 'host.fs.listDirectory recursive',
          baseline: 'fs.promises.readdir recursive, withFileTypes',
          subjectSample: under.arm,
          baselineSample: under.readdir,
        }),
        ...interleavedRows({
          label: 'fs list 960 files (arm only, Node lstat)',
          subject: 'host.fs.listDirectory recursive, without the fs-at addon',
          baseline: 'fs.promises.readdir recursive, withFileTypes',
          subjectSample: under.armNode,
          baselineSample: under.readdir,
        }),
      ];
    } finally {
      await close();
    }
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

async function makeTree(where: string, directories: number, files: number): Promise<void> {
  for (let directory = 0; directory < directories; directory += 1) {
    const inside = path.join(where, `d${directory}`);
    await mkdir(inside, { recursive: true });
    await Promise.all(
      Array.from({ length: files }, (_unused, file) =>
        writeFile(path.join(inside, `f${file}.txt`), 'x'),
      ),
    );
  }
}
