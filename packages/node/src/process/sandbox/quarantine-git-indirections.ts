import {
  closeSync,
  constants,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
} from 'node:fs';
import path from 'node:path';
import {
  listGitIndirections,
  type GitIndirectionEntry,
  type GitIndirectionSnapshot,
} from './git-indirections.js';
import { moveIntoQuarantine } from './move-into-quarantine.js';
import { newRepositorySuspects } from './new-repository-suspects.js';

/** One git indirection that appeared or was replaced during a sandboxed run, and where it went. */
export interface SandboxGitQuarantine {
  readonly kind: 'git_indirection';
  readonly toolId: string;
  /** The git dir, relative to the workspace root that holds it: `.git`, `sub/.git`. */
  readonly repository: string;
  /** Relative to the git dir: `commondir`, `objects/info/alternates`, `worktrees/x/gitdir`. */
  readonly name: string;
  readonly change: 'appeared' | 'replaced';
  /** Where it was moved, relative to the git dir; absent: it could not be moved. */
  readonly quarantinedAs?: string;
}

/** What the quarantine needs once the sandboxed child has closed. */
export interface GitQuarantineInput {
  readonly toolId: string;
  readonly snapshots: readonly GitIndirectionSnapshot[];
  /** The writable roots: a worktree's `gitdir` must point inside one, and names are relative. */
  readonly roots: readonly string[];
  readonly onQuarantine?: ((event: SandboxGitQuarantine) => void) | undefined;
  /** Every git dir in the writable roots now (a rescan): one without a snapshot is new. */
  readonly gitDirsNow?: (() => Iterable<string>) | undefined;
}

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = constants;

/**
 * Compares each protected git dir with its snapshot from before the spawn and moves every
 * indirection that appeared or was replaced into `<gitDir>/toolhost-quarantine-<time>-<random>/`,
 * before the host runs anything else (the user's next plain `git` would read it). Moves are
 * renames of the name itself through directory descriptors opened without following a symlink,
 * so nothing outside the git dir is touched or created. A new linked worktree made by
 * `git worktree add` stays: its `commondir` is git's own `../..` and its `gitdir` is inside a root.
 *
 * Overlapping runs each compare with their own snapshot, so one may meet what another made in the
 * meantime. It is judged by what it says, never by who made it: git's own worktree files (and an
 * empty one, a concurrent `git worktree add` mid-write) stay, anything else is hostile whoever
 * made it. A frozen name cannot change inside any sandbox, so only the user's own edit on the host
 * during a run could be moved by mistake — and the event says where it went.
 */
export function quarantineGitIndirections(input: GitQuarantineInput): SandboxGitQuarantine[] {
  const events: SandboxGitQuarantine[] = [];
  for (const snapshot of input.snapshots) {
    guarded(() => settle(snapshot, changedIndirections(snapshot, input.roots), input, events));
  }
  // A repository made during the run: judged whole, against an empty snapshot.
  const known = new Set(input.snapshots.map((snapshot) => snapshot.gitDir));
  for (const gitDir of guarded(() => [...(input.gitDirsNow?.() ?? [])]) ?? []) {
    if (known.has(gitDir)) continue;
    known.add(gitDir);
    guarded(() => {
      if (isLinkedWorktreeGitDir(gitDir)) return;
      const snapshot = { gitDir, realGitDir: realPathOf(gitDir), entries: new Map() };
      const suspects = [
        // `git init` makes `info/exclude` and an empty `branches/` from its templates: they stay.
        ...changedIndirections(snapshot, input.roots).filter(
          (suspect) => !isTemplateDirectory(gitDir, suspect.name),
        ),
        ...newRepositorySuspects(gitDir).map((name) => ({ name, change: 'appeared' as const })),
      ];
      settle(snapshot, suspects, input, events);
    });
  }
  return events;
}

// The teardown that calls this must go on (stubs, the proxy): one repository's unexpected
// failure neither throws out of it nor stops the next repository's check.
function guarded<T>(work: () => T): T | undefined {
  try {
    return work();
  } catch {
    return undefined;
  }
}

type Suspect = { readonly name: string; readonly change: SandboxGitQuarantine['change'] };

function changedIndirections(
  snapshot: GitIndirectionSnapshot,
  roots: readonly string[],
): Suspect[] {
  const suspects: Suspect[] = [];
  for (const entry of listGitIndirections(snapshot.gitDir).values()) {
    const before = snapshot.entries.get(entry.name);
    if (before !== undefined && before.identity === entry.identity) continue;
    if (isGitsOwnWorktreeFile(snapshot.gitDir, entry, roots)) continue;
    suspects.push({ name: entry.name, change: before === undefined ? 'appeared' : 'replaced' });
  }
  return suspects;
}

function settle(
  snapshot: GitIndirectionSnapshot,
  suspects: readonly Suspect[],
  input: GitQuarantineInput,
  events: SandboxGitQuarantine[],
): void {
  if (suspects.length === 0) return;
  const moved = moveIntoQuarantine(
    snapshot,
    suspects.map((suspect) => suspect.name),
  );
  const repository = relativeToRoot(snapshot.gitDir, input.roots);
  for (const { name, change } of suspects) {
    const quarantinedAs = moved.get(name);
    const event: SandboxGitQuarantine = {
      kind: 'git_indirection',
      toolId: input.toolId,
      repository,
      name,
      change,
      ...(quarantinedAs === undefined ? {} : { quarantinedAs }),
    };
    events.push(event);
    notify(input.onQuarantine, event);
  }
}

// `<gitDir>/worktrees/<id>` with a `commondir`: its owner's rules judge its files. Without one,
// git would use it as a repository of its own (its `config`, its `hooks/`): judged as new.
function isLinkedWorktreeGitDir(gitDir: string): boolean {
  if (path.basename(path.dirname(gitDir)) !== 'worktrees') return false;
  try {
    return lstatSync(path.join(gitDir, 'commondir')).isFile();
  } catch {
    return false;
  }
}

function isTemplateDirectory(gitDir: string, name: string): boolean {
  try {
    if (name === 'info') return lstatSync(path.join(gitDir, name)).isDirectory();
    return name === 'branches' && readdirSync(path.join(gitDir, name)).length === 0;
  } catch {
    return false;
  }
}

function realPathOf(gitDir: string): string {
  try {
    return realpathSync.native(gitDir);
  } catch {
    return gitDir;
  }
}

// Only what `git worktree add` writes itself: `commondir` is always `../..`, and `gitdir` names
// the new checkout's `.git` inside the workspace. Any other target would send the host's git (or
// `git worktree remove`, which deletes what `gitdir` names) elsewhere. An empty file is git's own
// write in progress in a concurrent run; git refuses an empty `commondir` rather than read it.
function isGitsOwnWorktreeFile(
  gitDir: string,
  entry: GitIndirectionEntry,
  roots: readonly string[],
): boolean {
  const match = /^worktrees\/([^/]+)\/(commondir|gitdir)$/.exec(entry.name);
  if (match === null || entry.kind !== 'file') return false;
  const text = readSmallFile(path.join(gitDir, entry.name));
  if (text === undefined) return false;
  const target = text.replace(/\r?\n$/, '');
  if (target === '') return true;
  if (match[2] === 'commondir') return target === '../..';
  if (target.includes('\n') || target.includes('\0')) return false;
  const resolved = path.resolve(gitDir, 'worktrees', match[1] ?? '', target);
  return path.basename(resolved) === '.git' && roots.some((root) => isWithin(resolved, root));
}

function readSmallFile(file: string): string | undefined {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO planted under the name must not hang the host.
    fd = openSync(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(4096);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, length).toString('utf8');
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function relativeToRoot(gitDir: string, roots: readonly string[]): string {
  const root = roots.find((candidate) => isWithin(gitDir, candidate)) ?? roots[0] ?? gitDir;
  return path.relative(root, gitDir) || '.';
}

function notify(
  observer: ((event: SandboxGitQuarantine) => void) | undefined,
  event: SandboxGitQuarantine,
): void {
  try {
    observer?.(event);
  } catch {
    // An observer's failure must not stop the quarantine of the next name or the teardown.
  }
}

function isWithin(target: string, base: string): boolean {
  return target === base || target.startsWith(`${base}/`);
}
