import {
  closeSync,
  constants,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  type Dirent,
} from 'node:fs';
import path from 'node:path';
import {
  foldSegment,
  isFoldedOnReadFloor,
  isFoldedOnWriteFloor,
  type FloorContext,
} from '../../fs/floor.js';

/** What the sandbox must hide or freeze inside one writable root, found by name. */
export interface WorkspaceScan {
  /** Read floor: shown as an empty file (files) or an empty read-only directory. */
  readonly masked: readonly MaskedPath[];
  /** Write floor (shell startup files, package-manager hooks, the config file): read-only. */
  readonly readOnly: readonly string[];
  /** Every `.git` directory found by the walk, and the submodule git dirs under them. */
  readonly gitDirs: readonly string[];
  /**
   * The target of each `.git` file (`gitdir: <path>`) as its text names it, joined to the file's
   * directory but not normalised: the workspace wrote it, so `resolveSandboxPath` resolves it.
   */
  readonly gitPointers?: readonly string[];
}

/** One read-floor entry and what it is, so it is masked with the right kind of mount. */
export interface MaskedPath {
  readonly path: string;
  readonly kind: 'file' | 'directory';
}

/**
 * Walks a root without following symlinks and collects every read-floor and write-floor name in
 * it, judged by the fs jail's own floor functions so the sandbox and `read_file` agree on what
 * a secret is. A directory whose mtime and ctime are unchanged since its last walk is not read
 * again: a repeat scan of a large tree costs one lstat per directory.
 */
export function scanWorkspace(root: string, floor: FloorContext): WorkspaceScan {
  const masked: MaskedPath[] = [];
  const readOnly: string[] = [];
  const gitDirs: string[] = [];
  const gitPointers: string[] = [];
  const pending: { directory: string; segments: readonly string[] }[] = [
    { directory: root, segments: foldSegments(root) },
  ];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { directory, segments } = next;
    const listing = listDirectory(directory);
    if (listing === undefined) continue;
    const verdict = judgeDirectory(directory, segments, listing, floor);
    masked.push(...verdict.masked);
    readOnly.push(...verdict.readOnly);
    // Read every time: a `.git` file's content can change without its directory changing.
    for (const entry of verdict.git) {
      const full = path.join(directory, entry.name);
      if (entry.kind === 'directory') {
        gitDirs.push(full, ...submoduleGitDirs(full));
        maskGitSecrets(full, masked);
        continue;
      }
      // The pointer itself is frozen: rewritten, it would send the host's git elsewhere.
      readOnly.push(full);
      const pointer = readGitFile(full, directory);
      if (pointer !== undefined) gitPointers.push(pointer);
    }
    for (const child of verdict.subdirectories) pending.push(child);
  }
  return { masked, readOnly, gitDirs, gitPointers };
}

interface DirectoryVerdict {
  readonly masked: readonly MaskedPath[];
  readonly readOnly: readonly string[];
  readonly git: readonly ListedEntry[];
  readonly subdirectories: readonly { directory: string; segments: readonly string[] }[];
}

const verdicts = new Map<
  string,
  { listing: readonly ListedEntry[]; floor: FloorContext; verdict: DirectoryVerdict }
>();

// A directory's names only change with its listing: the verdict on them is kept beside it, so an
// unchanged tree costs one lstat per directory and no per-entry work.
function judgeDirectory(
  directory: string,
  segments: readonly string[],
  listing: readonly ListedEntry[],
  floor: FloorContext,
): DirectoryVerdict {
  const cached = verdicts.get(directory);
  if (cached !== undefined && cached.listing === listing && cached.floor === floor) {
    return cached.verdict;
  }
  const masked: MaskedPath[] = [];
  const readOnly: string[] = [];
  const git: ListedEntry[] = [];
  const subdirectories: { directory: string; segments: readonly string[] }[] = [];
  for (const entry of listing) {
    // A symlink holds no secret itself: what it points at inside a root is judged under its own
    // name, as the jail judges a path on its realpath (and a mount over a dangling link would
    // create its target).
    if (entry.kind === 'symlink' || entry.kind === 'other') continue;
    if (entry.folded === '.git') {
      git.push(entry);
      continue;
    }
    const full = path.join(directory, entry.name);
    const entrySegments = [...segments, entry.folded];
    if (isFoldedOnReadFloor(entrySegments, floor)) {
      masked.push({ path: full, kind: entry.kind });
      continue;
    }
    if (entry.kind === 'file' && isFoldedOnWriteFloor(entrySegments, floor)) readOnly.push(full);
    if (entry.kind === 'directory')
      subdirectories.push({ directory: full, segments: entrySegments });
  }
  const verdict = { masked, readOnly, git, subdirectories };
  if (verdicts.size >= MAX_CACHED_DIRECTORIES) verdicts.clear();
  verdicts.set(directory, { listing, floor, verdict });
  return verdict;
}

interface ListedEntry {
  readonly name: string;
  readonly folded: string;
  readonly kind: 'file' | 'directory' | 'symlink' | 'other';
}

interface CachedListing {
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  readonly scannedAtNs: bigint;
  readonly entries: readonly ListedEntry[];
}

const listings = new Map<string, CachedListing>();
const MAX_CACHED_DIRECTORIES = 200_000;
// A change within this window of the walk may share its timestamp: such a listing is re-read
// next time (git's "racy index" rule).
const RACY_WINDOW_NS = 50_000_000n;

function listDirectory(directory: string): readonly ListedEntry[] | undefined {
  let info;
  try {
    info = lstatSync(directory, { bigint: true });
  } catch {
    return undefined;
  }
  if (!info.isDirectory()) return undefined;
  const cached = listings.get(directory);
  if (
    cached !== undefined &&
    cached.mtimeNs === info.mtimeNs &&
    cached.ctimeNs === info.ctimeNs &&
    cached.scannedAtNs - info.mtimeNs > RACY_WINDOW_NS
  ) {
    return cached.entries;
  }
  const scannedAtNs = BigInt(Date.now()) * 1_000_000n;
  let dirents: Dirent[];
  try {
    dirents = readdirSync(directory, { withFileTypes: true });
  } catch {
    return undefined;
  }
  // A directory that changed and changed back (a temp file made and removed, the run's own stub)
  // keeps its entries object, so the verdict on its names is reused rather than re-folded.
  const entries =
    cached !== undefined && sameNames(cached.entries, dirents)
      ? cached.entries
      : dirents.map((dirent): ListedEntry => ({
          name: dirent.name,
          folded: foldSegment(dirent.name),
          kind: kindOf(dirent),
        }));
  if (listings.size >= MAX_CACHED_DIRECTORIES) listings.clear();
  listings.set(directory, { mtimeNs: info.mtimeNs, ctimeNs: info.ctimeNs, scannedAtNs, entries });
  return entries;
}

function kindOf(dirent: Dirent): ListedEntry['kind'] {
  if (dirent.isDirectory()) return 'directory';
  if (dirent.isFile()) return 'file';
  return dirent.isSymbolicLink() ? 'symlink' : 'other';
}

function sameNames(entries: readonly ListedEntry[], dirents: readonly Dirent[]): boolean {
  if (entries.length !== dirents.length) return false;
  for (let index = 0; index < dirents.length; index += 1) {
    const entry = entries[index];
    const dirent = dirents[index];
    if (entry === undefined || dirent === undefined) return false;
    if (entry.name !== dirent.name || entry.kind !== kindOf(dirent)) return false;
  }
  return true;
}

function foldSegments(target: string): string[] {
  return target
    .split('/')
    .filter((segment) => segment !== '')
    .map(foldSegment);
}

// `gitdir: <path>` of a worktree or submodule checkout, relative to the file's directory. Joined
// as text, never normalised: `sub/../lnk` means what the kernel makes of it, not `lnk`.
function readGitFile(file: string, directory: string): string | undefined {
  try {
    const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    let text: string;
    try {
      text = readFileSync(fd, 'utf8').slice(0, 4096);
    } finally {
      closeSync(fd);
    }
    const match = /^gitdir: (.+?)\r?\n?$/m.exec(text);
    const target = match?.[1];
    if (target === undefined) return undefined;
    return target.startsWith('/') ? target : `${directory}/${target}`;
  } catch {
    return undefined;
  }
}

/** Submodules keep their repositories under `.git/modules/<name>` (nested for nested modules). */
export function submoduleGitDirs(gitDir: string): string[] {
  const found: string[] = [];
  const pending = [path.join(gitDir, 'modules')];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    for (const entry of listDirectory(next) ?? []) {
      if (entry.kind !== 'directory') continue;
      const candidate = path.join(next, entry.name);
      const children = listDirectory(candidate) ?? [];
      if (children.some((child) => child.name === 'HEAD')) {
        found.push(candidate);
        pending.push(path.join(candidate, 'modules'));
      } else {
        pending.push(candidate);
      }
    }
  }
  return found;
}

// `.git/credentials` (and a stray `.git/.env`) are read floor inside a repository too.
function maskGitSecrets(gitDir: string, masked: MaskedPath[]): void {
  for (const entry of listDirectory(gitDir) ?? []) {
    if (entry.folded === 'credentials' && entry.kind === 'file') {
      masked.push({ path: path.join(gitDir, entry.name), kind: 'file' });
    }
  }
}
