import { lstatSync, readdirSync, realpathSync, type BigIntStats } from 'node:fs';
import path from 'node:path';
import { ToolExecutionError, ToolPolicyError } from '@toolhost/core';

/**
 * Names in a git dir that make the host's next `git` read another config, objects from
 * elsewhere, or a program (gitrepository-layout): `commondir` moves config, hooks and objects;
 * `gitdir` is a linked worktree's way back (`git worktree remove` deletes what it names);
 * `config.worktree` is config; `info/` holds attributes (filter and diff drivers), grafts and the
 * sparse-checkout; `branches/` and `remotes/` are legacy remote definitions (where a fetch or push
 * goes). `config` and `hooks/` are not here: the view filters and freezes them already.
 */
export const GIT_INDIRECTION_NAMES: readonly string[] = [
  'commondir',
  'gitdir',
  'config.worktree',
  'info',
  'branches',
  'remotes',
];
/** Under `objects/info/`: other object stores (`git gc` writes the rest of that directory). */
export const OBJECT_INDIRECTION_NAMES: readonly string[] = ['alternates', 'http-alternates'];
/** In each `worktrees/<id>/`: what the host's git reads in that linked worktree. */
export const WORKTREE_INDIRECTION_NAMES: readonly string[] = [
  'commondir',
  'gitdir',
  'config.worktree',
];

/** One indirection name as found: what it is, and an identity that changes if it is replaced. */
export interface GitIndirectionEntry {
  /** Relative to the git dir, `/`-separated: `commondir`, `worktrees/x/gitdir`. */
  readonly name: string;
  readonly kind: 'file' | 'directory' | 'symlink' | 'other';
  /** dev and inode (and a file's ctime): what changes when the name is rewritten or replaced. */
  readonly identity: string;
  /** A directory on the way (`objects`, `worktrees/x`) found as a symlink, not a name itself. */
  readonly onTheWay: boolean;
}

/** The indirections of one git dir before a spawn: what to freeze, what to compare after. */
export interface GitIndirectionSnapshot {
  readonly gitDir: string;
  /** The git dir's real path: the quarantine checks its descriptor still names it. */
  readonly realGitDir: string;
  readonly entries: ReadonlyMap<string, GitIndirectionEntry>;
}

/**
 * Lists a git dir's indirection names without following any symlink: each directory on the way
 * (`objects`, `objects/info`, `worktrees`, `worktrees/<id>`) is looked at with `lstat` and only
 * entered when it is a real directory; one that is a symlink is reported as an entry itself.
 */
export function listGitIndirections(gitDir: string): Map<string, GitIndirectionEntry> {
  const found = new Map<string, GitIndirectionEntry>();
  const look = (name: string, onTheWay = false): BigIntStats | undefined => {
    const info = lstatQuietly(path.join(gitDir, name));
    if (info === undefined) return undefined;
    if (onTheWay && info.isDirectory()) return info;
    // A directory on the way that is anything but a directory hides nothing (git fails there).
    if (onTheWay && !info.isSymbolicLink()) return undefined;
    found.set(name, { name, kind: kindOf(info), identity: identityOf(info), onTheWay });
    return info;
  };
  for (const name of GIT_INDIRECTION_NAMES) look(name);
  if (look('objects', true)?.isDirectory() === true) {
    if (look('objects/info', true)?.isDirectory() === true) {
      for (const name of OBJECT_INDIRECTION_NAMES) look(`objects/info/${name}`);
    }
  }
  if (look('worktrees', true)?.isDirectory() === true) {
    for (const id of readNames(path.join(gitDir, 'worktrees'))) {
      if (look(`worktrees/${id}`, true)?.isDirectory() !== true) continue;
      for (const name of WORKTREE_INDIRECTION_NAMES) look(`worktrees/${id}/${name}`);
    }
  }
  return found;
}

/**
 * Snapshots a git dir before a spawn. Returns the names that cannot be frozen safely — a symlink
 * (bwrap would bind what it points at, and the host's git follows it) or a FIFO, socket or device
 * (a FIFO `commondir` hangs the host's git) — so the caller refuses the spawn instead. `listFrom`
 * names the same directory through a pinned descriptor (`/proc/self/fd/N`), so the listing reads
 * the directory the view mounts, not whatever the path names by now.
 */
export function snapshotGitIndirections(
  gitDir: string,
  listFrom: string = gitDir,
): {
  readonly snapshot: GitIndirectionSnapshot;
  readonly unsafe: readonly GitIndirectionEntry[];
} {
  const entries = listGitIndirections(listFrom);
  const unsafe = [...entries.values()].filter(
    (entry) => entry.kind === 'symlink' || entry.kind === 'other',
  );
  let realGitDir = gitDir;
  try {
    realGitDir = realpathSync.native(gitDir);
  } catch {
    // Gone: nothing to freeze, and the quarantine finds nothing to open.
  }
  return { snapshot: { gitDir, realGitDir, entries }, unsafe };
}

/**
 * Refuses a spawn over a repository whose indirection cannot be frozen in place: a symlink
 * (`symlink_refused`, as every workspace link that would shape the view) or a FIFO, socket or
 * device (`containment_failed`). Fails closed rather than run with that name writable or bound
 * elsewhere. The names are the repository's own, relative to its git dir: no host path.
 */
export function refuseUnsafeIndirections(
  toolId: string,
  unsafe: readonly GitIndirectionEntry[],
): void {
  if (unsafe.some((entry) => entry.kind === 'symlink')) {
    throw new ToolPolicyError(toolId, 'symlink_refused');
  }
  if (unsafe.length > 0) {
    throw new ToolExecutionError(toolId, 'containment_failed', {
      retryable: false,
      cause: new Error(
        `git indirection is not a regular file or directory: ${unsafe.map((entry) => entry.name).join(', ')}`,
      ),
    });
  }
}

/** Snapshots every protected git dir before a spawn, or refuses it (`refuseUnsafeIndirections`). */
export function snapshotRepositories(
  toolId: string,
  gitDirs: Iterable<string>,
): readonly GitIndirectionSnapshot[] {
  const snapshots: GitIndirectionSnapshot[] = [];
  for (const gitDir of gitDirs) {
    const { snapshot, unsafe } = snapshotGitIndirections(gitDir);
    refuseUnsafeIndirections(toolId, unsafe);
    snapshots.push(snapshot);
  }
  return snapshots;
}

/** The existing regular files and real directories of a snapshot, to bind read-only in place. */
export function frozenIndirections(snapshot: GitIndirectionSnapshot): string[] {
  return [...snapshot.entries.values()]
    .filter((entry) => !entry.onTheWay && (entry.kind === 'file' || entry.kind === 'directory'))
    .map((entry) => path.join(snapshot.gitDir, entry.name));
}

function lstatQuietly(target: string): BigIntStats | undefined {
  try {
    return lstatSync(target, { bigint: true });
  } catch {
    return undefined;
  }
}

function readNames(directory: string): string[] {
  try {
    return readdirSync(directory);
  } catch {
    return [];
  }
}

function kindOf(info: BigIntStats): GitIndirectionEntry['kind'] {
  if (info.isSymbolicLink()) return 'symlink';
  if (info.isFile()) return 'file';
  return info.isDirectory() ? 'directory' : 'other';
}

// A file's ctime too: a rewrite in place, or a name removed and made again (the inode number is
// often reused at once), shows. Not a directory's: the user's own edit on the host meanwhile
// (`.git/info/exclude` saved by an editor) must not read as an attack, and a frozen directory
// cannot be removed or replaced inside.
function identityOf(info: BigIntStats): string {
  return info.isDirectory() ? `${info.dev}:${info.ino}` : `${info.dev}:${info.ino}:${info.ctimeNs}`;
}
