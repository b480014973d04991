import { readdir, readFile } from 'node:fs/promises';

/** The environment variable that marks every process of one `proc-walk` contained run. */
export const RUN_TOKEN_ENV = 'TOOLHOST_RUN_TOKEN';

/**
 * Signals a command's whole tree: its process group, and under `proc-walk` containment every
 * process whose environment carries the run's token (that survives `setsid` and double forks,
 * which leave the group) and every live descendant of those. Never throws: a process that is
 * already gone is the goal.
 */
export async function killProcessTree(
  target: { readonly pgid: number | undefined; readonly runToken: string | undefined },
  signal: NodeJS.Signals,
): Promise<void> {
  // Scan before signalling: once a parent dies its children are re-parented and the ancestry
  // that ties an unmarked descendant to the run is gone.
  const marked =
    target.runToken === undefined ? [] : await findMarkedProcesses(target.runToken, target.pgid);
  if (target.pgid !== undefined) signalQuietly(-target.pgid, signal);
  for (const pid of marked) signalQuietly(pid, signal);
}

/**
 * Every live pid (other than this one) whose environment holds `RUN_TOKEN_ENV=token`, plus every
 * descendant of such a process or of `rootPid` (a child started with an empty environment still
 * has a marked parent while that parent lives).
 */
export async function findMarkedProcesses(runToken: string, rootPid?: number): Promise<number[]> {
  const marker = Buffer.from(`${RUN_TOKEN_ENV}=${runToken}\0`);
  const entries = await readdir('/proc').catch(() => [] as string[]);
  const processes = await Promise.all(
    entries.map(async (entry) => {
      if (!/^\d+$/.test(entry)) return undefined;
      const pid = Number(entry);
      if (pid === process.pid) return undefined;
      // Another user's process or one that just exited: unreadable, and not ours either way.
      const [environ, stat] = await Promise.all([
        readFile(`/proc/${entry}/environ`).catch(() => undefined),
        readFile(`/proc/${entry}/stat`, 'utf8').catch(() => undefined),
      ]);
      // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so parse after the last ')'.
      const ppid = Number(stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      return { pid, ppid, marked: environ?.includes(marker) === true };
    }),
  );
  const known = processes.filter((entry) => entry !== undefined);
  const tree = new Set(known.filter((entry) => entry.marked).map((entry) => entry.pid));
  if (rootPid !== undefined) tree.add(rootPid);
  for (let grew = true; grew;) {
    grew = false;
    for (const entry of known) {
      if (!tree.has(entry.pid) && tree.has(entry.ppid)) {
        tree.add(entry.pid);
        grew = true;
      }
    }
  }
  return [...tree].filter((pid) => known.some((entry) => entry.pid === pid));
}

function signalQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // ESRCH (already gone) or EPERM (not ours): nothing left to do for this pid.
  }
}

/**
 * Under `pid-namespace` containment the command is PID 1 of its namespace, and the kernel drops
 * a signal to PID 1 that it does not handle: SIGTERM would do nothing until the grace period
 * ends. A process outside a namespace with no SIGTERM handler would simply have died, so when
 * the init neither catches nor ignores SIGTERM the host sends SIGKILL now — the same outcome,
 * without the wait. A handler (cleanup) or an explicit ignore keeps the normal grace period.
 * The init is the spawned child itself (`in-process`), or the one child of `unshare`.
 */
export async function killNamespaceInitIfUnhandled(
  target: { readonly initPid: number } | { readonly wrapperPid: number },
): Promise<void> {
  const init = 'initPid' in target ? target.initPid : await onlyChild(target.wrapperPid);
  if (!Number.isInteger(init) || init <= 0) return;
  const status = await readFile(`/proc/${init}/status`, 'utf8').catch(() => undefined);
  if (status === undefined) return;
  const mask = (name: string): bigint => {
    const hex = new RegExp(`^${name}:\\s*([0-9a-f]+)$`, 'm').exec(status)?.[1];
    return hex === undefined ? SIGTERM_BIT : BigInt(`0x${hex}`);
  };
  if (((mask('SigCgt') | mask('SigIgn')) & SIGTERM_BIT) === 0n) signalQuietly(init, 'SIGKILL');
}

async function onlyChild(wrapperPid: number): Promise<number> {
  const children = await readFile(`/proc/${wrapperPid}/task/${wrapperPid}/children`, 'utf8').catch(
    () => '',
  );
  return Number(children.trim().split(/\s+/)[0]);
}

// Signal n is bit n-1 of the /proc status masks; SIGTERM is 15.
const SIGTERM_BIT = 1n << 14n;
