import type { FsScopeTier } from '@toolhost/core/policy';
import type { MaskedPath, WorkspaceScan } from './scan-workspace.js';
import type { SystemView } from './system-view.js';

/**
 * A workspace path verified on the host and pinned: `fd` is the child's descriptor number of an
 * `O_PATH` descriptor to it (`--bind-fd`), `path` its real path, the mount's destination.
 */
export interface PinnedPath {
  readonly fd: number;
  readonly path: string;
}

/** One repository the sandbox protects: its git dir and the filtered config shown in it. */
export interface SandboxRepository {
  readonly gitDir: PinnedPath;
  /** A host file holding the filtered config, bound read-only over `<gitDir>/config`. */
  readonly filteredConfig: string;
  /** Read-only in place: `hooks/`, `config.worktree` files (each exists, or was stubbed). */
  readonly frozen: readonly PinnedPath[];
}

/** Everything the bwrap argument vector is built from, already resolved on the host. */
export interface SandboxArgsInput {
  readonly tier: FsScopeTier;
  /** Read-write: the workspace root, plus `extraRoots` in the `project` tier. */
  readonly writableRoots: readonly string[];
  /** Per-allowance extras (an MCP server's data directory, a toolchain home). */
  readonly readOnlyPaths: readonly string[];
  readonly readWritePaths: readonly string[];
  /** Installation prefixes of the executable and its interpreter. */
  readonly executablePrefixes: readonly string[];
  /** The host user's home: an empty writable tmpfs inside (absent: none is made). */
  readonly home: string | undefined;
  /** Existing credential stores under `home`, masked wherever the home is visible. */
  readonly homeSecrets: readonly MaskedPath[];
  readonly system: SystemView;
  /** The read-floor masks of each scanned root (their `readOnly` names come pinned, below). */
  readonly scans: readonly WorkspaceScan[];
  readonly repositories: readonly SandboxRepository[];
  /** Write-floor files, `.git` pointer files and the config file, frozen read-only in place. */
  readonly frozenFiles: readonly PinnedPath[];
  /** Host paths hidden in every tier (the state directory). */
  readonly hidden: readonly string[];
  /** An empty read-only host file, bound over each masked file (reads as empty, not EACCES). */
  readonly emptyFile: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** The descriptor number bwrap reads the seccomp program from; absent: no filter. */
  readonly seccompFd?: number;
  /** Runs first inside the sandbox to hand the proxy listener out (the network allowance). */
  readonly networkInit?: {
    readonly bindPath: string;
    readonly hostPath: string;
    readonly fd: number;
    readonly port: number;
  };
  /** Runs first of all inside the sandbox: reaps the command and reports its exit on `fd`. */
  readonly waitInit?: {
    readonly bindPath: string;
    readonly hostPath: string;
    readonly fd: number;
  };
  /**
   * bwrap reports its pid on `infoFd` and waits on `blockFd` once the view is built, before
   * running anything: the host checks the mounts in between (hold-sandbox-start.ts).
   */
  readonly startGate?: { readonly infoFd: number; readonly blockFd: number };
  /** `prlimit` and its options, run inside before the command; empty: no budgets. */
  readonly limits: readonly string[];
  readonly command: readonly [string, ...string[]];
}

/**
 * Every namespace, no way back to a user namespace, every capability dropped, a new session (no
 * TIOCSTI into the host's terminal), and death with the host: the part every sandbox shares.
 */
export const ISOLATION_ARGS: readonly string[] = [
  '--unshare-all',
  '--unshare-user',
  '--disable-userns',
  '--cap-drop',
  'ALL',
  '--new-session',
  '--die-with-parent',
];

/**
 * Where an init program is shown inside the sandbox. bwrap must create the mount point: on its
 * own empty root in the allowlist tiers, but the full tier's root is the host's, read-only, so
 * there it goes under that tier's private `/run` tmpfs.
 */
export function initBindPath(tier: FsScopeTier, name: 'net-init' | 'wait-init'): string {
  return tier === 'full' ? `/run/.toolhost/${name}` : `/.toolhost/${name}`;
}

/**
 * The bwrap argument vector. Order is meaning: bwrap applies mounts in sequence and a later one
 * covers an earlier one, so the view is built from wide to narrow — system, home tmpfs, prefixes,
 * the writable roots, the repositories, then every mask and read-only freeze inside them.
 */
export function buildSandboxArgs(input: SandboxArgsInput): string[] {
  const args: string[] = [...ISOLATION_ARGS, '--hostname', 'toolhost-sandbox', '--clearenv'];
  for (const [name, value] of Object.entries(input.env)) args.push('--setenv', name, value);

  if (input.tier === 'full') {
    args.push('--ro-bind', '/', '/');
  } else {
    args.push('--ro-bind', '/usr', '/usr');
    for (const link of input.system.links) args.push('--symlink', link.target, link.path);
    for (const directory of input.system.directories) args.push('--ro-bind', directory, directory);
    args.push('--ro-bind', '/etc', '/etc');
  }
  // Fresh kernel views and no host sockets: nothing under /run, /sys or the host's /tmp.
  args.push('--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp');
  if (input.tier === 'full') args.push('--tmpfs', '/run', '--tmpfs', '/var/tmp', '--tmpfs', '/sys');

  const home = input.home;
  const homeInsideRoot =
    home !== undefined && input.writableRoots.some((root) => isWithin(home, root));
  // The full tier shows the host's home read-only; the others an empty writable one.
  if (home !== undefined && !homeInsideRoot && input.tier !== 'full') args.push('--tmpfs', home);
  for (const prefix of input.executablePrefixes) args.push('--ro-bind', prefix, prefix);
  for (const extra of input.readOnlyPaths) args.push('--ro-bind', extra, extra);
  for (const root of input.writableRoots) args.push('--bind', root, root);
  for (const extra of input.readWritePaths) args.push('--bind', extra, extra);

  // Every mount whose source is a workspace path binds the descriptor the host verified, never
  // the path's text: bwrap follows symlinks in a source, and the workspace can swap one in.
  for (const repository of input.repositories) {
    // Bound onto itself, the git dir is a mount point: it cannot be renamed away and replaced by
    // one with a hostile config or hooks for the host's next git.
    const gitDir = repository.gitDir;
    args.push('--bind-fd', String(gitDir.fd), gitDir.path);
    for (const frozen of repository.frozen) {
      args.push('--ro-bind-fd', String(frozen.fd), frozen.path);
    }
    args.push('--ro-bind', repository.filteredConfig, `${gitDir.path}/config`);
  }
  // After the git dirs: a self-bind brings the host's directory back over any earlier mount inside
  // it, so the masks (`.git/credentials`, a git dir a pointer placed in a secret store) go last.
  for (const file of input.frozenFiles) args.push('--ro-bind-fd', String(file.fd), file.path);
  for (const scan of input.scans) {
    for (const mask of scan.masked) pushMask(args, input.emptyFile, mask.path, mask.kind);
  }
  // Every system mask last too: a declared path over /etc or the home must not uncover one.
  for (const mask of input.system.etcMasks) pushMask(args, input.emptyFile, mask.path, mask.kind);
  // Wherever part of the home is shown (a prefix, an extra path, the full tier), its credential
  // stores stay hidden.
  const shown =
    input.tier === 'full'
      ? ['/']
      : [...input.executablePrefixes, ...input.readOnlyPaths, ...input.readWritePaths];
  for (const secret of input.homeSecrets) {
    if (shown.some((visible) => isWithin(secret.path, visible))) {
      pushMask(args, input.emptyFile, secret.path, secret.kind);
    }
  }
  for (const hidden of input.hidden) args.push('--tmpfs', hidden);

  if (input.seccompFd !== undefined) args.push('--seccomp', String(input.seccompFd));
  if (input.startGate !== undefined) {
    args.push('--info-fd', String(input.startGate.infoFd));
    args.push('--block-fd', String(input.startGate.blockFd));
  }
  if (input.waitInit !== undefined) {
    args.push('--ro-bind', input.waitInit.hostPath, input.waitInit.bindPath);
  }
  if (input.networkInit !== undefined) {
    args.push('--ro-bind', input.networkInit.hostPath, input.networkInit.bindPath);
  }
  args.push('--chdir', input.cwd, '--');
  // The waiting init goes first so the pid it waits for is the whole chain's: the network init
  // and prlimit each exec the next, and the last exec is the command itself.
  if (input.waitInit !== undefined) {
    args.push(input.waitInit.bindPath, String(input.waitInit.fd), '--');
  }
  if (input.networkInit !== undefined) {
    args.push(
      input.networkInit.bindPath,
      String(input.networkInit.fd),
      String(input.networkInit.port),
      '--',
    );
  }
  args.push(...input.limits, ...input.command);
  return args;
}

function pushMask(
  args: string[],
  emptyFile: string,
  target: string,
  kind: 'file' | 'directory',
): void {
  if (kind === 'file') args.push('--ro-bind', emptyFile, target);
  // An empty tmpfs hides the directory; what a program writes there is in memory and gone with
  // the sandbox, so it needs no read-only remount (bwrap re-reads mountinfo for each one).
  else args.push('--tmpfs', target);
}

function isWithin(target: string, base: string): boolean {
  return base === '/' || target === base || target.startsWith(`${base}/`);
}
