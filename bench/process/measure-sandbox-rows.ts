import { spawn, type ChildProcess } from 'node:child_process';

import type { BenchRow } from '../bench-row.js';
import { buildChildEnv } from '../../packages/node/src/process/build-child-env.js';
import { createProcessArm } from '../../packages/node/src/process/create-process-arm.js';
import { resolveExecutable } from '../../packages/node/src/process/resolve-executable.js';
import {
  createSandbox,
  standaloneSandboxContext,
  type PreparedSandbox,
} from '../../packages/node/src/process/sandbox/create-sandbox.js';
import {
  minimalSandboxArgs,
  probeSandbox,
} from '../../packages/node/src/process/sandbox/detect-sandbox.js';
import { ONE_MIB_FILE } from './create-bench-workspace.js';
import { runCommandThrough } from './dispatch-run-command.js';
import { rawSpawn } from './raw-spawn.js';
import { sampleInterleaved, type Sample } from '../sample-interleaved.js';

/**
 * `run_command` of `true`, `cat` 1 MiB and `node -e 0` sandboxed (bwrap, the default on Linux)
 * against a raw `child_process.spawn` of the same command with the same environment, plus two
 * floors around `true`: bwrap alone with a minimal view (what any bwrap sandbox costs), and bwrap
 * with the exact argv, env and seccomp pipe toolhost prepared, spawned raw (what this view costs
 * in bwrap, without toolhost's own per-spawn work). All sampled in one interleaved loop.
 */
export async function measureSandboxRows(root: string): Promise<BenchRow[]> {
  const probe = await probeSandbox();
  if (!probe.available) {
    process.stderr.write(`bench process: sandbox rows skipped (${probe.why})\n`);
    return [];
  }
  // The child's own env on both sides: the host's may carry NODE_EXTRA_CA_CERTS (this VM's
  // does), which makes a raw `node` load a CA bundle the sandboxed one never sees (~2x slower).
  const env = buildChildEnv(process.env, {});
  const arm = createProcessArm({ root, sandbox: 'required' });
  const runCommand = runCommandThrough(arm);
  const described = (await arm.describeContainment()).sandbox;
  const armLabel = `registry + process arm (${described.version ?? 'bwrap'}, seccomp ${described.seccomp})`;

  // The arm's own sandbox context, so the prepared view is the one `run_command true` runs in.
  const sandbox = createSandbox('required', {}, standaloneSandboxContext(root, process.env));
  const trueFile = await resolveExecutable({
    command: 'true',
    searchPath: env['PATH'] ?? '',
    cwd: root,
    root,
  });
  const trueRequest = {
    toolId: 'run_command',
    file: trueFile,
    args: [],
    env,
    cwd: root,
    limits: [],
  };
  let prepared: PreparedSandbox | undefined;

  const raw = (command: string, args: readonly string[], bytes: number) => async () => {
    const { exitCode, stdout } = await rawSpawn(command, args, { cwd: root, env });
    if (exitCode !== 0 || stdout.length !== bytes) throw new Error(`bench: raw ${command}`);
  };
  const samples = await sampleInterleaved(
    {
      rawTrue: { run: raw('true', [], 0) },
      bwrapMinimal: {
        run: async () => {
          const { exitCode } = await rawSpawn(probe.bwrap, minimalSandboxArgs(trueFile), {
            cwd: '/',
            env: {},
          });
          if (exitCode !== 0) throw new Error('bench: minimal bwrap');
        },
      },
      bwrapToolhostView: {
        before: async () => {
          prepared = await sandbox.prepare(trueRequest);
        },
        run: () => spawnPrepared(prepared),
        after: () => prepared?.release(),
      },
      prepareOnly: {
        run: async () => {
          const view = await sandbox.prepare(trueRequest);
          view.release();
        },
      },
      sandboxedTrue: { run: () => runCommand('true', []) },
      rawCat: { run: raw('cat', [ONE_MIB_FILE], 1024 * 1024) },
      sandboxedCat: { run: () => runCommand('cat', [ONE_MIB_FILE]) },
      rawNode: { run: raw('node', ['-e', '0'], 0) },
      sandboxedNode: { run: () => runCommand('node', ['-e', '0']) },
    },
    // The warm-up covers the first sandboxed spawn's probe, scan and git-config filtering.
    { iterations: 120, warmup: 15 },
  );

  const rawTrue = { label: 'child_process.spawn true', sample: samples.rawTrue };
  return [
    ...compare('run_command true, sandboxed', armLabel, samples.sandboxedTrue, rawTrue, {
      target: '≤+10 ms',
    }),
    cpuRow('run_command true, sandboxed', armLabel, samples.sandboxedTrue, rawTrue),
    ...compare(
      'bwrap alone, minimal view (floor)',
      'bwrap: namespaces, cap drop, /usr + /proc + /dev + /tmp, around true',
      samples.bwrapMinimal,
      rawTrue,
    ),
    ...compare(
      "bwrap, toolhost's view (prepared untimed)",
      'bwrap with the argv, env and seccomp pipe the arm prepared, around true',
      samples.bwrapToolhostView,
      rawTrue,
    ),
    ...compare(
      "toolhost's per-spawn prep alone",
      'sandbox.prepare + release, no spawn',
      samples.prepareOnly,
      rawTrue,
      { delta: false },
    ),
    ...compare('run_command cat 1 MiB, sandboxed', armLabel, samples.sandboxedCat, {
      label: 'child_process.spawn cat',
      sample: samples.rawCat,
    }),
    ...compare(
      'run_command node -e 0, sandboxed',
      armLabel,
      samples.sandboxedNode,
      { label: 'child_process.spawn node', sample: samples.rawNode },
      { target: '≤1.5x' },
    ),
  ];
}

interface Baseline {
  readonly label: string;
  readonly sample: Sample;
}

// As spawn-process.ts starts a sandboxed command, minus the arm's capture and budgets.
function spawnPrepared(prepared: PreparedSandbox | undefined): Promise<void> {
  if (prepared === undefined) return Promise.reject(new Error('bench: not prepared'));
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(prepared.file, prepared.args, {
      cwd: '/',
      env: prepared.env,
      stdio: ['ignore', 'pipe', 'pipe', ...prepared.extraStdio],
      detached: true,
    });
    prepared.started(child);
    child.stdout?.resume();
    child.stderr?.resume();
    child.once('error', reject);
    child.once('close', (exitCode) =>
      exitCode === 0 ? resolve() : reject(new Error(`bench: bwrap exited ${exitCode}`)),
    );
  });
}

// A median row and a min row; the name carries the absolute difference, which a ratio hides
// when the baseline itself is a few milliseconds (and which means nothing for a row that spawns
// nothing).
function compare(
  label: string,
  subject: string,
  sample: Sample,
  baseline: Baseline,
  { target, delta = true }: { readonly target?: string; readonly delta?: boolean } = {},
): BenchRow[] {
  return (['median', 'min'] as const).map((statistic) => {
    const subjectUs = statistic === 'median' ? sample.medianUs : sample.minUs;
    const baselineUs = statistic === 'median' ? baseline.sample.medianUs : baseline.sample.minUs;
    return {
      name: `process: ${label} (wall ${statistic}${delta ? `, ${formatDelta(subjectUs - baselineUs)}` : ''})`,
      subject,
      baseline: baseline.label,
      subjectUs: Math.round(subjectUs),
      baselineUs: Math.round(baselineUs),
      ratio: Number((subjectUs / baselineUs).toFixed(2)),
      ...(target === undefined ? {} : { target }),
    };
  });
}

function cpuRow(label: string, subject: string, sample: Sample, baseline: Baseline): BenchRow {
  const { cpuMedianUs } = baseline.sample;
  return {
    name: `process: ${label} (host CPU median, ${formatDelta(sample.cpuMedianUs - cpuMedianUs)})`,
    subject,
    baseline: baseline.label,
    subjectUs: Math.round(sample.cpuMedianUs),
    baselineUs: Math.round(cpuMedianUs),
    ratio: Number((sample.cpuMedianUs / cpuMedianUs).toFixed(2)),
  };
}

function formatDelta(us: number): string {
  return `${us >= 0 ? '+' : '−'}${(Math.abs(us) / 1000).toFixed(1)} ms`;
}
