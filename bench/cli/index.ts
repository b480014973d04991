import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from '../bench-row.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
// The published binary (the esbuild bundle) and tsc's unbundled output of the same sources.
const BUNDLE_BIN = join(REPO, 'packages/cli/dist/bundle/toolhost.js');
const DIST_BIN = join(REPO, 'packages/cli/dist/bin.js');
const SAMPLES = 15;
const WARMUP = 2;

/**
 * Wall time of one `toolhost` process end to end (start, config, host, dispatch, exit), against
 * a bare `node -e 0` start: the published bundle and the unbundled tsc output when built (`npm run
 * build`), else the sources. All run in turn (baseline, subjects, baseline, …); each subject gets
 * two rows, the minimum (the start-up cost itself) and the median (what a user waits now).
 */
export async function run(): Promise<BenchRow[]> {
  const base = mkdtempSync(join(tmpdir(), 'toolhost-bench-cli-'));
  const root = join(base, 'app');
  spawnSync('mkdir', [root]);
  writeFileSync(join(root, 'notes.txt'), 'hello\n');
  const subjects: { readonly label: string; readonly argv: readonly string[] }[] = [
    ...(existsSync(BUNDLE_BIN) ? [{ label: 'bundle', argv: [BUNDLE_BIN] }] : []),
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
  const timeUs = (args: readonly string[], expectedStatus = 0): number => {
    const start = process.hrtime.bigint();
    const child = spawnSync(process.execPath, args, { cwd: root, stdio: 'ignore', env });
    const elapsed = Number(process.hrtime.bigint() - start) / 1000;
    // A subject that failed early would time its own error path, not the work.
    if (child.status !== expectedStatus)
      throw new Error(`bench cli: node ${args.join(' ')} exited ${child.status}`);
    return elapsed;
  };
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
      // Baseline and every subject in turn, so a machine slowing down slows them all.
      const baselines: number[] = [];
      const times = subjects.map(() => [] as number[]);
      for (let index = 0; index < WARMUP + SAMPLES; index += 1) {
        const baselineUs = timeUs(['-e', '0']);
        const subjectUs = subjects.map((subject) =>
          timeUs([...subject.argv, ...args, ...state], status),
        );
        if (index < WARMUP) continue;
        baselines.push(baselineUs);
        subjectUs.forEach((us, which) => times[which]?.push(us));
      }
      subjects.forEach((subject, which) => {
        for (const [statistic, pick] of [
          ['min', min],
          ['median', median],
        ] as const) {
          const subjectUs = pick(times[which] ?? []);
          const baselineUs = pick(baselines);
          rows.push({
            name: `${name} (${statistic} of ${SAMPLES})`,
            subject: `toolhost ${args[0]} (${subject.label})`,
            baseline: 'node -e 0',
            subjectUs,
            baselineUs,
            ratio: subjectUs / baselineUs,
            ...(subject.label === 'bundle' && args[0] === 'call' ? { target: '≤2.5x' } : {}),
          });
        }
      });
    }
    return rows;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

function min(values: readonly number[]): number {
  return Math.min(...values);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}
