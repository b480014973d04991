import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from '../bench-row.js';
import { interleavedRows, sampleInterleaved, type TimedOperation } from '../sample-interleaved.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
// The published binary (the esbuild bundle: its script run from the V8 code cache made at build
// time), the same bundle's ES module build (what a Node other than the builder's runs) and tsc's
// unbundled output of the same sources.
const BUNDLE_BIN = join(REPO, 'packages/cli/dist/bundle/toolhost.js');
const BUNDLE_ESM_BIN = join(REPO, 'packages/cli/dist/bundle/esm/toolhost.js');
const DIST_BIN = join(REPO, 'packages/cli/dist/bin.js');
const SAMPLES = 15;
const WARMUP = 2;

/**
 * Wall time of one `toolhost` process end to end (start, config, host, dispatch, exit), against
 * a bare `node -e 0` start, sampled interleaved (`sampleInterleaved`: baseline and subjects in
 * turn, forwards and backwards) so a machine slowing down slows them all: the built binaries
 * when built (`npm run build`), else the sources. Each subject gets a median row (what a user
 * waits) and a min row (the start-up cost itself).
 */
export async function run(): Promise<BenchRow[]> {
  const base = mkdtempSync(join(tmpdir(), 'toolhost-bench-cli-'));
  const root = join(base, 'app');
  mkdirSync(root);
  writeFileSync(join(root, 'notes.txt'), 'hello\n');
  const subjects: { readonly label: string; readonly argv: readonly string[] }[] = [
    ...(existsSync(BUNDLE_BIN) ? [{ label: 'bundle', argv: [BUNDLE_BIN] }] : []),
    ...(existsSync(BUNDLE_ESM_BIN)
      ? [{ label: 'bundle, ES module build', argv: [BUNDLE_ESM_BIN] }]
      : []),
    ...(existsSync(DIST_BIN) ? [{ label: 'tsc dist, unbundled', argv: [DIST_BIN] }] : []),
  ];
  if (subjects.length === 0)
    subjects.push({
      label: 'tsx sources',
      argv: [
        '--conditions=source',
        '--import',
        join(REPO, 'node_modules/tsx/dist/loader.mjs'),
        join(REPO, 'packages/cli/src/bin.ts'),
      ],
    });
  const state = ['--state-dir', join(base, 'state')];
  // No inherited NODE_OPTIONS: a loader or an inspector would be timed with the binary.
  const env = { ...process.env };
  delete env['NODE_OPTIONS'];
  const spawn = (args: readonly string[], expectedStatus = 0): TimedOperation => ({
    run: () => {
      const child = spawnSync(process.execPath, args, { cwd: root, stdio: 'ignore', env });
      // A subject that failed early would time its own error path, not the work.
      if (child.status !== expectedStatus)
        throw new Error(`bench cli: node ${args.join(' ')} exited ${child.status}`);
      return Promise.resolve();
    },
  });
  try {
    const rows: BenchRow[] = [];
    for (const [name, args, status] of [
      ['cli call read_file', ['call', 'read_file', '{"path":"notes.txt"}'], 0],
      // `ls` is on no allowlist: explain walks the pipeline and answers "denied" (exit 3).
      [
        'cli explain run_command',
        ['explain', 'run_command', '{"command":"ls"}', '--tools', 'run_command'],
        3,
      ],
    ] as const) {
      const operations: Record<string, TimedOperation> = { 'node -e 0': spawn(['-e', '0']) };
      for (const subject of subjects)
        operations[subject.label] = spawn([...subject.argv, ...args, ...state], status);
      const samples = await sampleInterleaved(operations, {
        iterations: SAMPLES,
        warmup: WARMUP,
      });
      const baselineSample = samples['node -e 0'];
      for (const subject of subjects) {
        const subjectSample = samples[subject.label];
        if (baselineSample === undefined || subjectSample === undefined) continue;
        rows.push(
          ...interleavedRows({
            label: `${name} (${SAMPLES} runs)`,
            subject: `toolhost ${args[0]} (${subject.label})`,
            baseline: 'node -e 0',
            subjectSample,
            baselineSample,
            ...(subject.label === 'bundle' && args[0] === 'call' ? { target: '≤2.5x' } : {}),
          }),
        );
      }
    }
    return rows;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
