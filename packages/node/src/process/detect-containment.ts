import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';

/** How the host makes sure no descendant of a command outlives the call. */
export type ContainmentMode = 'pid-namespace' | 'proc-walk' | 'process-group';

/** What `doctor` reports, and what the spawn path wraps each command with. */
export interface ContainmentInfo {
  /**
   * `pid-namespace`: the command is PID 1 of a fresh PID namespace (`unshare`), so when it exits
   * or is killed the kernel kills every descendant, `setsid` or not. `proc-walk`: the child gets a
   * run token in its environment and the host kills every `/proc` entry carrying it (a descendant
   * that clears its environment escapes). `process-group`: only the group is killed.
   */
  readonly mode: ContainmentMode;
  readonly unshare?: { readonly file: string; readonly args: readonly string[] };
  /** Set when CPU and address-space budgets can be enforced by the OS. */
  readonly prlimit?: string;
}

/** Which containment to use: `auto` picks the strongest that works here. */
export type ContainmentPreference = 'auto' | ContainmentMode;

/** Probes the OS once per process (and per preference) and remembers the answer. */
export function detectContainment(
  preference: ContainmentPreference = 'auto',
): Promise<ContainmentInfo> {
  let detected = cache.get(preference);
  if (detected === undefined) {
    detected = probe(preference);
    cache.set(preference, detected);
  }
  return detected;
}

const cache = new Map<ContainmentPreference, Promise<ContainmentInfo>>();

// Helpers come from fixed system directories, never the (caller-influenced) PATH.
const SYSTEM_DIRS = ['/usr/bin', '/bin', '/usr/sbin', '/sbin'];

// Root may create a PID namespace directly; an unprivileged user needs a user namespace first,
// mapped to itself when util-linux can (so files keep their owner), else to root.
const UNSHARE_CANDIDATES: readonly (readonly string[])[] = [
  ['--pid', '--fork', '--kill-child'],
  ['--user', '--map-current-user', '--pid', '--fork', '--kill-child'],
  ['--user', '--map-root-user', '--pid', '--fork', '--kill-child'],
];

async function probe(preference: ContainmentPreference): Promise<ContainmentInfo> {
  const prlimitFile = await findSystemBinary('prlimit');
  const prlimit =
    prlimitFile !== undefined &&
    (await runsCleanly(prlimitFile, ['--cpu=5', '--as=1073741824', '--']))
      ? prlimitFile
      : undefined;
  const withBudgets = prlimit === undefined ? {} : { prlimit };
  if (process.platform === 'linux' && (preference === 'auto' || preference === 'pid-namespace')) {
    const unshareFile = await findSystemBinary('unshare');
    if (unshareFile !== undefined) {
      for (const args of UNSHARE_CANDIDATES) {
        if (await runsCleanly(unshareFile, [...args, '--'])) {
          return { mode: 'pid-namespace', unshare: { file: unshareFile, args }, ...withBudgets };
        }
      }
    }
  }
  if (process.platform === 'linux' && preference !== 'process-group') {
    const procReadable = await access('/proc/self/environ', constants.R_OK).then(
      () => true,
      () => false,
    );
    if (procReadable) return { mode: 'proc-walk', ...withBudgets };
  }
  return { mode: 'process-group', ...withBudgets };
}

async function findSystemBinary(name: string): Promise<string | undefined> {
  for (const directory of SYSTEM_DIRS) {
    const file = path.join(directory, name);
    const found = await access(file, constants.X_OK).then(
      () => true,
      () => false,
    );
    if (found) return file;
  }
  return undefined;
}

// The probe runs the wrapper around `true` itself, so "works" means "works here, now", not
// "the binary exists": a container may forbid namespaces even to root.
async function runsCleanly(file: string, prefix: readonly string[]): Promise<boolean> {
  const trueFile = await findSystemBinary('true');
  if (trueFile === undefined) return false;
  return new Promise((resolve) => {
    const child = spawn(file, [...prefix, trueFile], { stdio: 'ignore', env: {}, timeout: 5000 });
    child.once('error', () => resolve(false));
    child.once('close', (code) => resolve(code === 0));
  });
}
