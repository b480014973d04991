import { statSync } from 'node:fs';

/** What a file is, as the kernel names it: equal only for the same object on the same device. */
export interface FileIdentity {
  readonly dev: bigint;
  readonly ino: bigint;
}

/** One mount the host must find exactly where the argument vector put it, before the command. */
export type MountExpectation =
  | {
      readonly kind: 'bind';
      readonly dest: string;
      readonly identity: FileIdentity;
      readonly readOnly: boolean;
    }
  | { readonly kind: 'tmpfs'; readonly dest: string };

// bwrap options the sandbox uses, by how many values follow each. An option not listed here makes
// the plan refuse: a view the host cannot read back is a view it cannot check.
const ARITY = new Map<string, number>([
  ['--unshare-all', 0],
  ['--unshare-user', 0],
  ['--disable-userns', 0],
  ['--new-session', 0],
  ['--die-with-parent', 0],
  ['--clearenv', 0],
  ['--cap-drop', 1],
  ['--hostname', 1],
  ['--dev', 1],
  ['--proc', 1],
  ['--tmpfs', 1],
  ['--seccomp', 1],
  ['--chdir', 1],
  ['--info-fd', 1],
  ['--block-fd', 1],
  ['--setenv', 2],
  ['--symlink', 2],
  ['--bind', 2],
  ['--ro-bind', 2],
  ['--bind-fd', 2],
  ['--ro-bind-fd', 2],
]);

/**
 * The mounts of a bwrap argument vector whose destination lies strictly inside an area the
 * sandbox writes (the workspace roots, `readWritePaths`): the only destinations a process on the
 * workspace — another sandbox on it, say — could redirect with a symlink between the host's
 * check and bwrap's mount (bwrap follows symlinks in a destination). Read from the very vector
 * bwrap gets, in its order: a later mount at or above a destination covers the earlier one, so
 * only what stays visible is expected. `fdIdentity` answers a `--bind-fd` descriptor's object.
 * Throws `TypeError` on an option it does not know (the caller fails the spawn closed).
 */
export function planSandboxMounts(
  args: readonly string[],
  writable: readonly string[],
  fdIdentity: (childFd: number) => FileIdentity | undefined,
): MountExpectation[] {
  let expected: MountExpectation[] = [];
  const add = (expectation: MountExpectation): void => {
    const { dest } = expectation;
    expected = expected.filter((earlier) => !isWithin(earlier.dest, dest));
    expected.push(expectation);
  };
  for (let index = 0; index < args.length;) {
    const option = args[index] ?? '';
    if (option === '--') break;
    const arity = ARITY.get(option);
    if (arity === undefined) throw new TypeError('toolhost: unplanned sandbox option');
    const first = args[index + 1] ?? '';
    const dest = args[index + arity] ?? '';
    index += 1 + arity;
    if (option === '--tmpfs') {
      if (insideAny(first, writable)) add({ kind: 'tmpfs', dest: first });
      else dropCovered(first);
      continue;
    }
    const bind = option === '--bind' || option === '--ro-bind';
    const bindFd = option === '--bind-fd' || option === '--ro-bind-fd';
    if (!bind && !bindFd) continue;
    if (!insideAny(dest, writable)) {
      dropCovered(dest);
      continue;
    }
    const identity = bindFd ? fdIdentity(Number(first)) : identityOfPath(first);
    // Nothing to compare with: the spawn cannot be checked, so it does not run.
    if (identity === undefined) throw new TypeError('toolhost: unplanned sandbox mount source');
    add({ kind: 'bind', dest, identity, readOnly: option.startsWith('--ro-') });
  }
  return expected;

  function dropCovered(dest: string): void {
    expected = expected.filter((earlier) => !isWithin(earlier.dest, dest));
  }
}

function identityOfPath(source: string): FileIdentity | undefined {
  try {
    const info = statSync(source, { bigint: true });
    return { dev: info.dev, ino: info.ino };
  } catch {
    return undefined;
  }
}

function insideAny(target: string, areas: readonly string[]): boolean {
  return areas.some((area) => target.startsWith(`${area}/`));
}

function isWithin(target: string, base: string): boolean {
  return base === '/' || target === base || target.startsWith(`${base}/`);
}
