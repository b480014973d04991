import path from 'node:path';
import type { ToolHost } from '@toolhost/core';
import { createProcessArm, type ContainmentDescription } from '@toolhost/node/process';
import { CliUsageError } from '../cli-error.js';
import type { EffectiveSettings } from '../config/resolve-settings.js';

/** What the session's process arm says it enforces; undefined when the arm does not say. */
export async function describeHostContainment(
  host: ToolHost,
): Promise<ContainmentDescription | undefined> {
  // `ProcessCapability` is core's seam; only the Node arm adds `describeContainment`.
  const arm = host.process as
    { describeContainment?: () => Promise<ContainmentDescription> } | undefined;
  if (typeof arm?.describeContainment !== 'function') return undefined;
  try {
    return await arm.describeContainment();
  } catch {
    return undefined;
  }
}

/**
 * The floors a session's commands would run under, from a process arm built only to describe
 * them: `explain` has no host, and describing spawns nothing but the cached bubblewrap probe.
 */
export async function describeProcessFloors(
  settings: EffectiveSettings,
): Promise<ContainmentDescription | undefined> {
  let arm;
  try {
    arm = createProcessArm({
      root: settings.root,
      budgets: settings.budgets,
      sandbox: settings.sandbox,
      ...settings.sandboxAllowance,
      // The same tier, roots and floors the session's host gives its arm; a run's spill
      // directory sits under `<stateDir>/spill`, so the parent stands in for it.
      sandboxContext: {
        fsScope: settings.fsScope,
        roots: [settings.root, ...(settings.fsScope === 'project' ? settings.extraRoots : [])],
        floor: {
          stateDir: settings.stateDir,
          spillDir: path.join(settings.stateDir, 'spill'),
          configFile: settings.configFile,
        },
        stateDir: settings.stateDir,
      },
    });
  } catch (error) {
    // Fixed templates naming an option, never a value: a usage problem, as in `openSession`.
    if (error instanceof TypeError) throw new CliUsageError(error.message);
    return undefined;
  }
  return arm.describeContainment().catch(() => undefined);
}
