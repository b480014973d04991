import { randomUUID } from 'node:crypto';

import { RUN_TOKEN_ENV } from './kill-process-tree.js';
import type { ProcessBudgets, SpawnPlan } from './spawn-process.js';

// What is actually executed for a plan: the sandbox's prepared argv, or the command under
// prlimit (and util-linux `unshare` when that is the containment).

/** The executable, argv and env to spawn, and the proc-walk run token when one is set. */
export function wrapCommand(plan: SpawnPlan): {
  file: string;
  argv: string[];
  env: Record<string, string>;
  runToken: string | undefined;
} {
  const { containment, sandbox } = plan;
  // The sandbox already holds the limits and the command (limits apply inside, after bwrap).
  if (sandbox !== undefined) {
    return {
      file: sandbox.file,
      argv: [...sandbox.args],
      env: { ...sandbox.env },
      runToken: undefined,
    };
  }
  let command = [plan.file, ...plan.args];
  const limits = prlimitCommand(containment.prlimit, plan.budgets);
  command = [...limits, ...command];
  // In `in-process` mechanism there is no wrapper: the command itself is PID 1.
  if (containment.mechanism === 'unshare') {
    command = [containment.unshare.file, ...containment.unshare.args, '--', ...command];
  }
  const env = { ...plan.env };
  let runToken: string | undefined;
  if (containment.mode === 'proc-walk') {
    runToken = randomUUID();
    env[RUN_TOKEN_ENV] = runToken;
  }
  const [file = plan.file, ...argv] = command;
  return { file, argv, env, runToken };
}

/**
 * `prlimit` and its options for `budgets`, or nothing when none is configured or `prlimit` is
 * unavailable (then `describeContainment` says `unenforced`).
 */
export function prlimitCommand(
  prlimit: string | undefined,
  budgets: ProcessBudgets | undefined,
): string[] {
  const limits: string[] = [];
  // Soft limit first (SIGXCPU / ENOMEM the program may report), the hard one a second later.
  if (budgets?.cpuSeconds !== undefined) {
    limits.push(`--cpu=${budgets.cpuSeconds}:${budgets.cpuSeconds + 1}`);
  }
  if (budgets?.addressSpaceBytes !== undefined) limits.push(`--as=${budgets.addressSpaceBytes}`);
  if (budgets?.openFiles !== undefined) limits.push(`--nofile=${budgets.openFiles}`);
  if (budgets?.fileSizeBytes !== undefined) limits.push(`--fsize=${budgets.fileSizeBytes}`);
  if (limits.length === 0 || prlimit === undefined) return [];
  return [prlimit, ...limits, '--'];
}
