import { rm } from 'node:fs/promises';

import type { BenchRow } from '../bench-row.js';
import { createProcessArm } from '../../packages/node/src/process/create-process-arm.js';
import { buildChildEnv } from '../../packages/node/src/process/build-child-env.js';
import { createBenchWorkspace } from './create-bench-workspace.js';
import { runCommandThrough } from './dispatch-run-command.js';
import { measureContainmentRows } from './measure-containment-rows.js';
import { measureSandboxRows } from './measure-sandbox-rows.js';
import { rawSpawn } from './raw-spawn.js';

/**
 * The process arm in one run: sandboxed `run_command` (bwrap, the Linux default) against raw
 * `child_process.spawn` and against bwrap's own floor, then the sandbox-off containments
 * (in-process PID namespace, forced util-linux unshare, process group), all on one small git
 * workspace.
 */
export async function run(): Promise<BenchRow[]> {
  const root = await createBenchWorkspace();
  try {
    // Whichever configuration ran first measured ~1.25x host CPU for `true` (process-group as
    // much as the namespace) while the registry path was still being optimised: warm both paths
    // past that before any row is timed, so the rows compare containments, not run order.
    const warmUp = runCommandThrough(
      createProcessArm({ root, sandbox: 'off', containment: 'process-group' }),
    );
    const env = buildChildEnv(process.env, {});
    for (let index = 0; index < 300; index += 1) {
      await warmUp('true', []);
      await rawSpawn('true', [], { cwd: root, env });
    }
    return [...(await measureSandboxRows(root)), ...(await measureContainmentRows(root))];
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
