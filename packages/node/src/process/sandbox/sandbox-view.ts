import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { ToolPolicyError } from '@toolhost/core';
import type { FsScopeTier } from '@toolhost/core/policy';
import type { FloorContext } from '../../fs/floor.js';
import type { PinnedPath, SandboxRepository } from './build-sandbox-args.js';
import type { SandboxContext, SandboxRequest } from './create-sandbox.js';
import { executablePrefixes } from './executable-prefixes.js';
import {
  refuseUnsafeIndirections,
  snapshotGitIndirections,
  type GitIndirectionSnapshot,
} from './git-indirections.js';
import { pinGitIndirections } from './pin-git-indirections.js';
import { pinnedChildPath, pinSandboxChild, pinSandboxPath } from './pin-sandbox-path.js';
import { ensureProtectedName } from './protected-stubs.js';
import { identityConfigEnv, readHostGitIdentity } from './read-host-git-identity.js';
import { emptyFile, filteredConfigFile } from './sandbox-files.js';
import type { SandboxAllowance } from './sandbox-options.js';
import { absoluteOrUndefined, exists } from './sandbox-paths.js';
import { isUnderAny, resolveSandboxPath } from './resolve-sandbox-path.js';
import {
  scanWorkspace,
  submoduleGitDirs,
  type MaskedPath,
  type WorkspaceScan,
} from './scan-workspace.js';
import { HOME_SECRETS, systemView } from './system-view.js';

/**
 * The filesystem view of one spawn: its bwrap mounts and git's identity. `register` takes a host
 * descriptor the view pins (a workspace path a mount binds) and answers its number in the child.
 */
export async function buildView(
  context: SandboxContext,
  request: SandboxRequest,
  allowance: SandboxAllowance,
  register: (hostFd: number) => number,
) {
  const toolId = request.toolId;
  const home = absoluteOrUndefined(context.hostEnv['HOME']);
  // The full tier writes only the workspace root; `project` adds its extra roots.
  const writableRoots = context.fsScope === 'project' ? context.roots : context.roots.slice(0, 1);
  const readWritePaths = allowance.readWritePaths ?? [];
  // Where the sandbox writes, as real paths: a symlink there is the workspace's own.
  const writable = [...writableRoots, ...readWritePaths.map(realOrSelf)];
  const scans: WorkspaceScan[] = writableRoots.map((root) => scanWorkspace(root, context.floor));
  for (const extra of readWritePaths) scans.push(scanWorkspace(extra, context.floor));
  const insideWritable = (target: string): boolean => isUnderAny(target, writable);
  // A path found in the workspace, resolved and pinned: the mount binds what was verified here.
  const pinAt = (
    target: string,
    kind: 'file' | 'directory' | 'either',
  ): (PinnedPath & { readonly hostFd: number }) | undefined => {
    const resolved = resolveSandboxPath(target, writable);
    if (resolved.kind === 'workspace_link') throw new ToolPolicyError(toolId, 'symlink_refused');
    if (resolved.kind !== 'real') return undefined;
    const hostFd = pinSandboxPath(toolId, resolved.path, kind);
    return { fd: register(hostFd), path: target, hostFd };
  };

  const repositories: SandboxRepository[] = [];
  const gitIndirections: GitIndirectionSnapshot[] = [];
  for (const gitDir of gitDirsOf(toolId, scans, writable)) {
    const pinned = pinAt(gitDir, 'directory');
    if (pinned === undefined) continue;
    const { hostFd } = pinned;
    // Made relative to the pinned directory, so never anywhere a swapped symlink points.
    ensureProtectedName(hostFd, 'hooks', 'directory');
    ensureProtectedName(hostFd, 'config', 'file');
    const frozen: PinnedPath[] = [];
    const hooks = pinSandboxChild(toolId, hostFd, 'hooks', 'directory');
    if (hooks !== undefined) frozen.push({ fd: register(hooks), path: path.join(gitDir, 'hooks') });
    // Every other indirection (git-indirections.ts), listed through the pinned descriptor so the
    // snapshot describes the directory the view mounts; a symlinked one refuses the spawn. What
    // appears during the run is compared with this snapshot on release and quarantined.
    const { snapshot, unsafe } = snapshotGitIndirections(gitDir, pinnedChildPath(hostFd, '.'));
    refuseUnsafeIndirections(toolId, unsafe);
    gitIndirections.push(snapshot);
    for (const indirection of pinGitIndirections(toolId, hostFd, snapshot)) {
      frozen.push({ fd: register(indirection.hostFd), path: indirection.path });
    }
    repositories.push({
      gitDir: { fd: pinned.fd, path: gitDir },
      filteredConfig: await filteredConfigFile(context, path.join(gitDir, 'config')),
      frozen,
    });
  }
  const frozenFiles: PinnedPath[] = [];
  for (const file of scans.flatMap((scan) => scan.readOnly)) {
    const pinned = pinAt(file, 'file');
    if (pinned !== undefined) frozenFiles.push({ fd: pinned.fd, path: file });
  }
  // The config file is frozen where it exists. Where it does not, nothing is mounted (a stub
  // would be left in the user's workspace or raced by another process): the run's release
  // quarantines one that appeared meanwhile.
  if (insideWritable(context.floor.configFile)) {
    const pinned = pinAt(context.floor.configFile, 'file');
    if (pinned !== undefined) frozenFiles.push({ fd: pinned.fd, path: context.floor.configFile });
  }
  // Only where the env already carries git's command-line config (the process arm's children):
  // HOME is empty inside, so git_commit needs the host user's identity passed explicitly.
  const configCount = request.env['GIT_CONFIG_COUNT'];
  const readOnlyPaths = (allowance.readOnlyPaths ?? []).filter(exists);
  const prefixes = executablePrefixes({
    file: request.file,
    searchPath: request.env['PATH'] ?? '',
    home,
    roots: context.roots,
    writable,
  });
  const identityEnv =
    configCount === undefined
      ? { entries: {}, count: 0 }
      : identityConfigEnv(await readHostGitIdentity(context.hostEnv), Number(configCount));
  return {
    identityEnv,
    gitIndirections,
    writableRoots: writable,
    // After the run: a repository it made is judged too (one lstat per directory).
    gitDirsNow: (): string[] =>
      gitDirsAfterRun(
        writable.map((root) => scanWorkspace(root, context.floor)),
        writable,
      ),
    configFileAbsent: insideWritable(context.floor.configFile) && !exists(context.floor.configFile),
    args: {
      tier: context.fsScope,
      writableRoots,
      readOnlyPaths,
      readWritePaths,
      executablePrefixes: prefixes,
      home,
      homeSecrets: homeSecretsShown(context.fsScope, home, [
        ...prefixes,
        ...readOnlyPaths,
        ...readWritePaths,
      ]),
      system: systemView(),
      scans: [...scans, ...readOnlyPaths.map((extra) => readOnlyScan(extra, context.floor))],
      repositories,
      frozenFiles,
      // The state dir is hidden where it would show: under a root the scan masks it already,
      // and under an empty HOME it is not there at all.
      hidden:
        context.fsScope === 'full' ||
        [...prefixes, ...readOnlyPaths].some((visible) =>
          isWithinPath(context.floor.stateDir, visible),
        )
          ? [context.floor.stateDir].filter(exists)
          : [],
      emptyFile: emptyFile(context),
    },
  };
}

// The git dirs the sandbox protects: the `.git` directories the scan found, and what each `.git`
// file points at — resolved on the host, never through a symlink the workspace made (refused:
// `gitdir: ../lnk` with `lnk -> ..` would otherwise name the workspace's parent), and only
// inside the areas the sandbox writes (one elsewhere is not the sandbox's to change).
function gitDirsOf(
  toolId: string,
  scans: readonly WorkspaceScan[],
  writable: readonly string[],
): string[] {
  const found = new Set(scans.flatMap((scan) => scan.gitDirs));
  for (const pointer of scans.flatMap((scan) => scan.gitPointers ?? [])) {
    const resolved = resolveSandboxPath(pointer, writable);
    if (resolved.kind === 'workspace_link') throw new ToolPolicyError(toolId, 'symlink_refused');
    if (resolved.kind !== 'real' || !isUnderAny(resolved.path, writable)) continue;
    found.add(resolved.path);
    for (const submodule of submoduleGitDirs(resolved.path)) found.add(submodule);
  }
  return [...found].filter((gitDir) => isUnderAny(gitDir, writable));
}

// After a run, the git dirs the host's own `git` would now enter: as `gitDirsOf`, but a pointer is
// followed the way git follows it (symlinks included: the spawn would refuse such a pointer, but
// the user's plain `git status` in between would not), and kept where it lands inside the areas
// the sandbox wrote — the only places the quarantine may move anything.
function gitDirsAfterRun(scans: readonly WorkspaceScan[], writable: readonly string[]): string[] {
  const found = new Set(scans.flatMap((scan) => scan.gitDirs));
  for (const pointer of scans.flatMap((scan) => scan.gitPointers ?? [])) {
    const real = realOrUndefined(pointer);
    if (real === undefined || !isUnderAny(real, writable)) continue;
    found.add(real);
    for (const submodule of submoduleGitDirs(real)) found.add(submodule);
  }
  return [...found].filter((gitDir) => isUnderAny(gitDir, writable));
}

function realOrUndefined(target: string): string | undefined {
  try {
    return realpathSync(target);
  } catch {
    return undefined;
  }
}

function realOrSelf(target: string): string {
  try {
    return realpathSync(target);
  } catch {
    return target;
  }
}

// A declared read-only path is judged by the read floor too: its secrets are masked, and a
// repository in it shows no config (it is not filtered: nothing there is git's to write).
function readOnlyScan(extra: string, floor: FloorContext): WorkspaceScan {
  const scan = scanWorkspace(extra, floor);
  const configs = scan.gitDirs
    .map((gitDir) => path.join(gitDir, 'config'))
    .filter(exists)
    .map((config): MaskedPath => ({ path: config, kind: 'file' }));
  return { masked: [...scan.masked, ...configs], readOnly: [], gitDirs: [] };
}

// Only where part of the home is shown (the full tier, a prefix or a declared path under it):
// otherwise the home is an empty tmpfs and there is nothing to look up.
function homeSecretsShown(
  tier: FsScopeTier,
  home: string | undefined,
  shown: readonly string[],
): MaskedPath[] {
  if (home === undefined) return [];
  const partlyShown = shown.some((visible) => visible === home || visible.startsWith(`${home}/`));
  return tier === 'full' || partlyShown ? existingSecrets(home) : [];
}

function existingSecrets(home: string): MaskedPath[] {
  const found: MaskedPath[] = [];
  for (const secret of HOME_SECRETS) {
    const full = path.join(home, secret);
    try {
      const info = lstatSync(full);
      if (info.isDirectory()) found.push({ path: full, kind: 'directory' });
      else if (info.isFile()) found.push({ path: full, kind: 'file' });
    } catch {
      // Not present.
    }
  }
  return found;
}

function isWithinPath(target: string, base: string): boolean {
  return target === base || target.startsWith(`${base}/`);
}
