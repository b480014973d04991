import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import type { PidNamespaceAddon } from '@toolhost/pid-namespace';
import { spawnInFreshPidNamespace } from './spawn-in-fresh-pid-namespace.js';

/** How the host makes sure no descendant of a command outlives the call. */
export type ContainmentMode = 'pid-namespace' | 'proc-walk' | 'process-group';

/**
 * How a `pid-namespace` command gets its namespace. `in-process`: the `@toolhost/pid-namespace`
 * addon moves the spawning thread into a fresh namespace for the one `spawn` call (needs
 * CAP_SYS_ADMIN), so the command itself is PID 1 with no extra exec. `unshare`: util-linux
 * `unshare --pid --fork` runs first and forks the command (one more fork + exec per call).
 */
export type PidNamespaceMechanism = 'in-process' | 'unshare';

/** What `doctor` reports, and what the spawn path wraps each command with. */
/**
 * `pid-namespace`: the command is PID 1 of a fresh PID namespace (made by `mechanism`), so when
 * it exits or is killed the kernel kills every descendant, `setsid` or not. `proc-walk`: the
 * child gets a run token in its environment and the host kills every `/proc` entry carrying it
 * (a descendant that clears its environment escapes). `process-group`: only the group is killed.
 * One discriminant, `mechanism`, says which of the addon or the wrapper is there.
 */
export type ContainmentInfo = ContainmentBudgets &
  (
    | {
        readonly mode: 'pid-namespace';
        readonly mechanism: 'in-process';
        readonly inProcess: PidNamespaceAddon;
      }
    | {
        readonly mode: 'pid-namespace';
        readonly mechanism: 'unshare';
        readonly unshare: { readonly file: string; readonly args: readonly string[] };
      }
    | {
        /** The sandbox's own PID namespace: bwrap is its init, the command's tree dies with it. */
        readonly mode: 'pid-namespace';
        readonly mechanism: 'bwrap';
      }
    | { readonly mode: 'proc-walk' | 'process-group'; readonly mechanism?: undefined }
  );

interface ContainmentBudgets {
  /** Set when CPU and address-space budgets can be enforced by the OS. */
  readonly prlimit?: string;
}

/** Which containment to use: `auto` picks the strongest that works here. */
export type ContainmentPreference = 'auto' | ContainmentMode;

/** Which `pid-namespace` mechanism to use: `auto` prefers `in-process` where it works. */
export type PidNamespaceMechanismPreference = 'auto' | PidNamespaceMechanism;

/** How `detectContainment` probes; the defaults are what a host uses. */
export interface DetectContainmentOptions {
  /** Restricts the `pid-namespace` mechanism (a forced one that fails here falls to the next mode). */
  readonly mechanism?: PidNamespaceMechanismPreference;
  /** Where the addon comes from (tests simulate a missing build); not cached when given. */
  readonly loadPidNamespace?: () => Promise<PidNamespaceAddon | undefined>;
}

/** Probes the OS once per process (and per preference) and remembers the answer. */
export function detectContainment(
  preference: ContainmentPreference = 'auto',
  options: DetectContainmentOptions = {},
): Promise<ContainmentInfo> {
  const { mechanism = 'auto', loadPidNamespace = importPidNamespace } = options;
  if (options.loadPidNamespace !== undefined) {
    return probe(preference, mechanism, loadPidNamespace);
  }
  const key = `${preference}/${mechanism}`;
  let detected = cache.get(key);
  if (detected === undefined) {
    detected = probe(preference, mechanism, loadPidNamespace);
    cache.set(key, detected);
  }
  return detected;
}

const cache = new Map<string, Promise<ContainmentInfo>>();

// An optional dependency: absent, or present without its native build, both mean "use unshare".
async function importPidNamespace(): Promise<PidNamespaceAddon | undefined> {
  try {
    return (await import('@toolhost/pid-namespace')).loadPidNamespace();
  } catch {
    return undefined;
  }
}

// Helpers come from fixed system directories, never the (caller-influenced) PATH.
const SYSTEM_DIRS = ['/usr/bin', '/bin', '/usr/sbin', '/sbin'];

// Root may create a PID namespace directly; an unprivileged user needs a user namespace first,
// mapped to itself when util-linux can (so files keep their owner), else to root.
const UNSHARE_CANDIDATES: readonly (readonly string[])[] = [
  ['--pid', '--fork', '--kill-child'],
  ['--user', '--map-current-user', '--pid', '--fork', '--kill-child'],
  ['--user', '--map-root-user', '--pid', '--fork', '--kill-child'],
];

/** The `prlimit` binary if it works here (probed once per process): what enforces budgets. */
export function detectPrlimit(): Promise<string | undefined> {
  prlimitProbe ??= (async () => {
    const prlimitFile = await findSystemBinary('prlimit');
    return prlimitFile !== undefined &&
      (await runsCleanly(prlimitFile, ['--cpu=5', '--as=1073741824', '--nofile=256', '--']))
      ? prlimitFile
      : undefined;
  })();
  return prlimitProbe;
}

let prlimitProbe: Promise<string | undefined> | undefined;

async function probe(
  preference: ContainmentPreference,
  mechanism: PidNamespaceMechanismPreference,
  loadPidNamespace: () => Promise<PidNamespaceAddon | undefined>,
): Promise<ContainmentInfo> {
  const prlimit = await detectPrlimit();
  const withBudgets = prlimit === undefined ? {} : { prlimit };
  if (process.platform === 'linux' && (preference === 'auto' || preference === 'pid-namespace')) {
    if (mechanism !== 'unshare') {
      const inProcess = await loadPidNamespace();
      if (inProcess !== undefined && (await runsInFreshNamespace(inProcess))) {
        return { mode: 'pid-namespace', mechanism: 'in-process', inProcess, ...withBudgets };
      }
    }
    const unshareFile = mechanism === 'in-process' ? undefined : await findSystemBinary('unshare');
    if (unshareFile !== undefined) {
      for (const args of UNSHARE_CANDIDATES) {
        if (await runsCleanly(unshareFile, [...args, '--'])) {
          const unshare = { file: unshareFile, args };
          return { mode: 'pid-namespace', mechanism: 'unshare', unshare, ...withBudgets };
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

// The addon loading is not enough: without CAP_SYS_ADMIN (or under a seccomp filter) entering
// fails, and the probe spawn shows the whole bracket works here.
async function runsInFreshNamespace(addon: PidNamespaceAddon): Promise<boolean> {
  const trueFile = await findSystemBinary('true');
  if (trueFile === undefined) return false;
  return new Promise((resolve) => {
    let child;
    try {
      child = spawnInFreshPidNamespace(addon, () =>
        spawn(trueFile, [], { stdio: 'ignore', env: {}, timeout: 5000 }),
      );
    } catch {
      return resolve(false);
    }
    child.once('error', () => resolve(false));
    child.once('close', (code) => resolve(code === 0));
  });
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
