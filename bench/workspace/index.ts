import { closeSync, existsSync, openSync, readdirSync, readSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { createToolRegistry, type ToolDispatchContext } from '@toolhost/core';
import { searchFilesTool } from '@toolhost/core/tools';

import { createNodeToolHost } from '../../packages/node/src/create-node-tool-host.js';
import {
  searchReaders,
  setSearchReader,
  type SearchReaderKind,
} from '../../packages/node/src/fs/search-reader.js';
import type { BenchRow } from '../bench-row.js';
import { rawSpawn } from '../process/raw-spawn.js';
import {
  interleavedRows,
  sampleInterleaved,
  type Sample,
  type TimedOperation,
} from '../sample-interleaved.js';

const DIRECTORIES = 100;
const FILES = 100;
// One file in fifty holds the needle: 200 matching lines over the tree.
const MATCH_EVERY = 50;
const NEEDLE = 'needleFunction';
const REGEX = 'needle[A-Z]\\w+\\(';
const CONTEXT: ToolDispatchContext = {
  nodeId: 'bench',
  grantedToolIds: new Set(['search_files']),
  config: {},
  toolPolicy: {},
  fsScope: 'sandboxed',
  gateApproved: false,
  // Ceilings above the payload: the row times the search and the pipeline, not the spill.
  limits: { maxBytes: 4 * 1024 * 1024, maxLines: 1_000_000 },
};

/**
 * `search_files` (literal and regex, via registry + Node host) over a 10 000-file tree against
 * `grep -rn` and `rg -n` of the same pattern over the same tree, sampled in one interleaved loop
 * (min and median rows). Then `edit_file`'s rows from `./edit.js`, when that file exists.
 */
export async function run(): Promise<BenchRow[]> {
  return [...(await searchRows()), ...(await editRows())];
}

async function searchRows(): Promise<BenchRow[]> {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-bench-ws-')));
  const root = path.join(base, 'app');
  try {
    await createTree(root);
    const { host, close } = await createNodeToolHost({ root, stateDir: path.join(base, 'state') });
    try {
      const registry = createToolRegistry({ tools: [searchFilesTool], host });
      const search = (args: Record<string, unknown>) => async () => {
        const outcome = await registry.dispatch(
          { id: 'b', name: 'search_files', args: { maxResults: 1000, ...args } },
          CONTEXT,
        );
        const output = outcome.output as { matches: unknown[]; truncated: boolean };
        if (output.matches.length !== expectedMatches() || output.truncated)
          throw new Error('bench: search_files missed matches');
      };
      // The same search through the other reader (Node's fs where the addon is the default).
      const through = (kind: SearchReaderKind, operation: () => Promise<void>) => async () => {
        setSearchReader(kind);
        try {
          await operation();
        } finally {
          setSearchReader('native');
        }
      };
      const spawned = (command: string, args: readonly string[]) => async () => {
        const { exitCode, stdout } = await rawSpawn(command, args, { cwd: root, env: {} });
        if (exitCode !== 0 || countLines(stdout) !== expectedMatches())
          throw new Error(`bench: ${command} missed matches`);
      };
      const hasAddon = (await searchReaders()).includes('native');
      const grep = onPath('grep');
      const rg = onPath('rg');
      if (grep === undefined) throw new Error('bench: no grep on PATH');
      const operations: Record<string, TimedOperation> = {
        literal: { run: search({ pattern: NEEDLE }) },
        regex: { run: search({ pattern: REGEX, regex: true }) },
        ...(hasAddon ? { literalNode: { run: through('node', search({ pattern: NEEDLE })) } } : {}),
        bareLiteral: { run: bareSyncLoop(root) },
        grepLiteral: { run: spawned(grep, ['-rnF', NEEDLE, '.']) },
        grepRegex: { run: spawned(grep, ['-rnE', REGEX, '.']) },
        ...(rg === undefined
          ? {}
          : {
              rgLiteral: { run: spawned(rg, ['-nF', NEEDLE, '.']) },
              rgRegex: { run: spawned(rg, ['-n', REGEX, '.']) },
            }),
      };
      const samples: Partial<Record<string, Sample>> = await sampleInterleaved(operations, {
        iterations: 15,
        warmup: 3,
      });
      if (rg === undefined) process.stderr.write('bench workspace: rg rows skipped (no rg)\n');
      const reader = hasAddon ? 'fs-at addon' : 'Node fs, no addon';
      return [
        ...rowsOf(
          samples,
          'literal',
          'grepLiteral',
          `search_files literal via registry + host (${reader})`,
          'grep -rnF',
          '≤1.5x',
        ),
        ...rowsOf(
          samples,
          'literalNode',
          'grepLiteral',
          'search_files literal via registry + host (Node fs)',
          'grep -rnF',
        ),
        // The platform's floor: what Node itself costs per file, with none of toolhost's checks.
        ...rowsOf(samples, 'bareLiteral', 'grepLiteral', 'bare Node sync loop', 'grep -rnF'),
        ...rowsOf(
          samples,
          'literal',
          'rgLiteral',
          `search_files literal via registry + host (${reader})`,
          'rg -nF',
          '≤5x',
        ),
        ...rowsOf(
          samples,
          'regex',
          'grepRegex',
          'search_files regex (RE2) via registry + host',
          'grep -rnE',
        ),
        ...rowsOf(
          samples,
          'regex',
          'rgRegex',
          'search_files regex (RE2) via registry + host',
          'rg -n',
        ),
      ];
    } finally {
      await close();
    }
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

// An absolute path: the baselines run with an empty environment, as a spawned tool would.
function onPath(command: string): string | undefined {
  for (const directory of (process.env['PATH'] ?? '').split(path.delimiter)) {
    const candidate = path.join(directory, command);
    if (directory !== '' && existsSync(candidate)) return candidate;
  }
  return undefined;
}

function rowsOf(
  samples: Partial<Record<string, Sample>>,
  subjectName: string,
  baselineName: string,
  subject: string,
  baseline: string,
  target?: string,
): BenchRow[] {
  const subjectSample = samples[subjectName];
  const baselineSample = samples[baselineName];
  if (subjectSample === undefined || baselineSample === undefined) return [];
  return interleavedRows({
    label: `workspace: search ${DIRECTORIES * FILES} files`,
    subject,
    baseline,
    subjectSample,
    baselineSample,
    ...(target === undefined ? {} : { target }),
  });
}

// Source-like files of ~2 KiB: 60 lines, one in fifty files with one matching line.
async function createTree(root: string): Promise<void> {
  const lines = Array.from(
    { length: 60 },
    (_unused, index) => `  const value${index} = compute(input, ${index}); // step ${index}`,
  );
  const plain = `${lines.join('\n')}\n`;
  const matching = `${lines.slice(0, 30).join('\n')}\n  return ${NEEDLE}(value1);\n${lines.slice(30).join('\n')}\n`;
  for (let directory = 0; directory < DIRECTORIES; directory += 1) {
    const where = path.join(root, `pkg${directory}`, 'src');
    await mkdir(where, { recursive: true });
    await Promise.all(
      Array.from({ length: FILES }, (_unused, file) =>
        writeFile(
          path.join(where, `module${file}.ts`),
          (directory * FILES + file) % MATCH_EVERY === 0 ? matching : plain,
        ),
      ),
    );
  }
}

/**
 * The least a Node search can do: `readdirSync` + `openSync` + `readSync` + `closeSync` per
 * file into one buffer, one `indexOf` each, no jail, floor, gitignore or result objects.
 */
function bareSyncLoop(root: string): () => Promise<void> {
  const needle = Buffer.from(NEEDLE);
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  const searchDirectory = (directory: string): number => {
    let found = 0;
    for (const dirent of readdirSync(directory, { withFileTypes: true })) {
      const entry = `${directory}/${dirent.name}`;
      if (dirent.isDirectory()) {
        found += searchDirectory(entry);
        continue;
      }
      const fd = openSync(entry, 'r');
      try {
        const length = readSync(fd, buffer, 0, buffer.length, 0);
        let at = buffer.subarray(0, length).indexOf(needle);
        while (at !== -1) {
          found += 1;
          at = buffer.subarray(0, length).indexOf(needle, at + needle.length);
        }
      } finally {
        closeSync(fd);
      }
    }
    return found;
  };
  return async () => {
    if (searchDirectory(root) !== expectedMatches())
      throw new Error('bench: bare loop missed matches');
  };
}

function expectedMatches(): number {
  return (DIRECTORIES * FILES) / MATCH_EVERY;
}

function countLines(output: Buffer): number {
  let count = 0;
  for (const byte of output) if (byte === 10) count += 1;
  return count;
}

// `edit_file`'s rows live beside this file, written separately; absent, they are skipped.
async function editRows(): Promise<BenchRow[]> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  if (!existsSync(path.join(here, 'edit.ts'))) {
    process.stderr.write(
      'bench workspace: edit_file rows skipped (bench/workspace/edit.ts not written yet)\n',
    );
    return [];
  }
  // A computed specifier: the file may not exist yet, and the typecheck must not need it.
  const specifier = './edit.js';
  const module = (await import(specifier)) as { runEditRows?: () => Promise<BenchRow[]> };
  if (typeof module.runEditRows !== 'function') {
    process.stderr.write('bench workspace: edit_file rows skipped (edit.ts has no runEditRows)\n');
    return [];
  }
  return await module.runEditRows();
}
