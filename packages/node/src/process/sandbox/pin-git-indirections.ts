import { closeSync } from 'node:fs';
import path from 'node:path';
import type { GitIndirectionSnapshot } from './git-indirections.js';
import { pinSandboxChild } from './pin-sandbox-path.js';

/** One name a repository's view binds read-only in place: a host descriptor and its path. */
export interface PinnedIndirection {
  readonly hostFd: number;
  /** The name's path on the host: the bind's destination. */
  readonly path: string;
}

/**
 * Pins every indirection a snapshot found (`commondir`, `info/`, `objects/info/alternates`,
 * `worktrees/<id>/config.worktree`, …) under the pinned git dir `gitDirFd`, one component at a
 * time and never through a symlink, so a name swapped since the snapshot fails the spawn
 * (`symlink_refused`) instead of binding what it points at. Directories on the way are closed
 * here: a directory descriptor from outside the sandbox's namespace must never reach the child.
 */
export function pinGitIndirections(
  toolId: string,
  gitDirFd: number,
  snapshot: GitIndirectionSnapshot,
): PinnedIndirection[] {
  const pinned: PinnedIndirection[] = [];
  try {
    for (const entry of snapshot.entries.values()) {
      if (entry.onTheWay || (entry.kind !== 'file' && entry.kind !== 'directory')) continue;
      const hostFd = pinNested(toolId, gitDirFd, entry.name.split('/'), entry.kind);
      if (hostFd !== undefined) {
        pinned.push({ hostFd, path: path.join(snapshot.gitDir, entry.name) });
      }
    }
    return pinned;
  } catch (error) {
    for (const entry of pinned) closeSync(entry.hostFd);
    throw error;
  }
}

// Walks `names` below `parentFd`; `undefined` when a component is gone (removed since the
// snapshot: nothing left to freeze there, and the quarantine judges what appears).
function pinNested(
  toolId: string,
  parentFd: number,
  names: readonly string[],
  kind: 'file' | 'directory',
): number | undefined {
  const [name, ...rest] = names;
  if (name === undefined) return undefined;
  if (rest.length === 0) return pinSandboxChild(toolId, parentFd, name, kind);
  const directoryFd = pinSandboxChild(toolId, parentFd, name, 'directory');
  if (directoryFd === undefined) return undefined;
  try {
    return pinNested(toolId, directoryFd, rest, kind);
  } finally {
    closeSync(directoryFd);
  }
}
