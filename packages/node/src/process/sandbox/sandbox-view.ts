import { lstatSync } from 'node:fs';
import path from 'node:path';
import type { FsScopeTier } from '@toolhost/core';
import type { FloorContext } from '../../fs/floor.js';
import type { SandboxRepository } from './build-sandbox-args.js';
import type { SandboxContext, SandboxRequest } from './create-sandbox.js';
import { executablePrefixes } from './executable-prefixes.js';
import { frozenIndirections, snapshotRepositories } from './git-indirections.js';
import { ensureProtectedNames } from './protected-stubs.js';
import { identityConfigEnv, readHostGitIdentity } from './read-host-git-identity.js';
import { emptyFile, filteredConfigFile } from './sandbox-files.js';
import type { SandboxAllowance } from './sandbox-options.js';
import { absoluteOrUndefined, exists } from './sandbox-paths.js';
import { scanWorkspace, type MaskedPath, type WorkspaceScan } from './scan-workspace.js';
import { HOME_SECRETS, systemView } from './system-view.js';

/** The filesystem view of one spawn: its bwrap mounts, the protected stubs, git's identity. */
export async function buildView(
  context: SandboxContext,
  request: SandboxRequest,
  allowance: SandboxAllowance,
) {
  const home = absoluteOrUndefined(context.hostEnv['HOME']);
  // The full tier writes only the workspace root; `project` adds its extra roots.
  const writableRoots = context.fsScope === 'project' ? context.roots : context.roots.slice(0, 1);
  const scans: WorkspaceScan[] = writableRoots.map((root) => scanWorkspace(root, context.floor));
  const readWritePaths = allowance.readWritePaths ?? [];
  for (const extra of readWritePaths) scans.push(scanWorkspace(extra, context.floor));
  const repositories: SandboxRepository[] = [];
  const protectedNames: { path: string; kind: 'file' | 'directory' }[] = [];
  const visibleWritable = [...writableRoots, ...readWritePaths];
  const insideWritable = (target: string): boolean =>
    visibleWritable.some((root) => target === root || target.startsWith(`${root}/`));
  if (insideWritable(context.floor.configFile)) {
    protectedNames.push({ path: context.floor.configFile, kind: 'file' });
  }
  const gitDirs = new Set(scans.flatMap((scan) => scan.gitDirs).filter(insideWritable));
  // Issue 33 (git-indirections.ts): every indirection frozen below, compared after the run by
  // `quarantineGitIndirections`; a symlinked one refuses the spawn here, before any stub is made.
  const gitIndirections = snapshotRepositories(request.toolId, gitDirs);
  for (const gitDir of gitDirs) {
    protectedNames.push(
      { path: path.join(gitDir, 'hooks'), kind: 'directory' },
      { path: path.join(gitDir, 'config'), kind: 'file' },
    );
  }
  const stubs = ensureProtectedNames(protectedNames);
  try {
    for (const snapshot of gitIndirections) {
      const { gitDir } = snapshot;
      repositories.push({
        gitDir,
        filteredConfig: await filteredConfigFile(context, path.join(gitDir, 'config')),
        frozen: [path.join(gitDir, 'hooks')].filter(exists).concat(frozenIndirections(snapshot)),
      });
    }
    const configFrozen =
      exists(context.floor.configFile) && insideWritable(context.floor.configFile);
    const extraReadOnly = configFrozen ? [context.floor.configFile] : [];
    // Only where the env already carries git's command-line config (the process arm's children):
    // HOME is empty inside, so git_commit needs the host user's identity passed explicitly.
    const configCount = request.env['GIT_CONFIG_COUNT'];
    const readOnlyPaths = (allowance.readOnlyPaths ?? []).filter(exists);
    const prefixes = executablePrefixes({
      file: request.file,
      searchPath: request.env['PATH'] ?? '',
      home,
      roots: context.roots,
    });
    const identityEnv =
      configCount === undefined
        ? { entries: {}, count: 0 }
        : identityConfigEnv(await readHostGitIdentity(context.hostEnv), Number(configCount));
    return {
      stubs,
      identityEnv,
      gitIndirections,
      writableRoots: visibleWritable,
      // After the run: a repository it made is judged too (cached: one lstat per directory).
      gitDirsNow: () =>
        visibleWritable
          .flatMap((root) => scanWorkspace(root, context.floor).gitDirs)
          .filter(insideWritable),
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
        scans: [
          ...scans,
          ...readOnlyPaths.map((extra) => readOnlyScan(extra, context.floor)),
          { masked: [], readOnly: extraReadOnly, gitDirs: [] },
        ],
        repositories,
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
  } catch (error) {
    stubs.release();
    throw error;
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
