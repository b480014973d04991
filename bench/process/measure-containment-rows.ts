import type { BenchRow } from '../bench-row.js';
import { measureUs } from '../bench-row.js';
import { buildChildEnv } from '../../packages/node/src/process/build-child-env.js';
import {
  createProcessArm,
  type ProcessArmOptions,
} from '../../packages/node/src/process/create-process-arm.js';
import { ONE_MIB_FILE } from './create-bench-workspace.js';
import { runCommandThrough } from './dispatch-run-command.js';
import { rawSpawn } from './raw-spawn.js';

/**
 * `run_command` of `true` and of `cat` on a 1 MiB file with the sandbox off, through registry +
 * process arm vs a raw `child_process.spawn` of the same. `auto` starts each command as PID 1 of
 * a fresh PID namespace: in-process through the `@toolhost/pid-namespace` addon as root, else
 * through util-linux `unshare` (one more fork + exec); the forced `unshare` rows show that cost,
 * the `process-group` rows the host's own work with no namespace at all.
 */
export async function measureContainmentRows(root: string): Promise<BenchRow[]> {
  const env = buildChildEnv(process.env, {});
  const rows: BenchRow[] = [];
  for (const options of CONFIGURATIONS) {
    const arm = createProcessArm({ root, sandbox: 'off', ...options });
    const runCommand = runCommandThrough(arm);
    const described = await arm.describeContainment();
    const mode = [described.containment, described.mechanism].filter(Boolean).join(' ');
    for (const [label, command, args, expectedBytes, iterations] of [
      ['true', 'true', [], 0, 100],
      ['cat 1 MiB', 'cat', [ONE_MIB_FILE], 1024 * 1024, 40],
    ] as const) {
      const throughRegistry = (): Promise<void> => runCommand(command, args);
      const raw = async (): Promise<void> => {
        const { stdout } = await rawSpawn(command, args, { cwd: root, env });
        if (stdout.length !== expectedBytes) throw new Error('bench: raw output');
      };
      // Interleaved passes, best median each: drift on a shared machine hits both sides. Host
      // CPU time is reported beside wall time: on a loaded box wall time mostly measures the
      // neighbours (but CPU time cannot see the cost of the `unshare` exec in the child).
      for (const clock of ['wall', 'cpu'] as const) {
        const best = { subject: Infinity, baseline: Infinity };
        for (let pass = 0; pass < 3; pass += 1) {
          const measureOptions = { iterations, rounds: 3, warmup: 10, clock };
          best.baseline = Math.min(best.baseline, await measureUs(raw, measureOptions));
          best.subject = Math.min(best.subject, await measureUs(throughRegistry, measureOptions));
        }
        rows.push({
          name: `process: run_command ${label} (sandbox off, ${mode}, ${clock === 'wall' ? 'wall' : 'host CPU'})`,
          subject: 'registry + process arm',
          baseline: 'child_process.spawn',
          subjectUs: Math.round(best.subject),
          baselineUs: Math.round(best.baseline),
          ratio: Number((best.subject / best.baseline).toFixed(2)),
          target: '≤1.15x',
        });
      }
    }
  }
  return rows;
}

const CONFIGURATIONS: readonly Pick<ProcessArmOptions, 'containment' | 'pidNamespaceMechanism'>[] =
  [
    { containment: 'auto' },
    { containment: 'pid-namespace', pidNamespaceMechanism: 'unshare' },
    { containment: 'process-group' },
  ];
