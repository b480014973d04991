import { constants, type BigIntStats } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { keepGitConfigEntry } from './filter-git-config-allowlist.js';
import { resolveHostGit, runHostGit } from './filter-git-config-host-git.js';
import { parseGitConfigListing, serialiseGitConfig } from './filter-git-config-syntax.js';

/** A repository config cut down to the allowlist, in git's syntax, ready to bind read-only. */
export interface FilteredGitConfig {
  readonly text: string;
  /** Entries git listed that are not in `text` (not allowed, a helper URL, or unusable). */
  readonly droppedKeys: number;
}

/** Which git reads the config, and when to give up. */
export interface FilterGitConfigOptions {
  /** Default: the first of /usr/bin/git, /bin/git, /usr/local/bin/git (never PATH). */
  readonly gitFile?: string;
  readonly signal?: AbortSignal;
}

/** Why a repository config could not be read through git. */
export type GitConfigFilterFailure =
  | 'config_unreadable'
  | 'config_too_large'
  | 'git_not_found'
  | 'git_failed'
  | 'timed_out'
  | 'output_too_large';

/**
 * The config could not be filtered. Fail closed: bind an EMPTY config in its place, so nothing of
 * the repository's config reaches the sandbox (git then reads a format-0 repository with no
 * remotes; an extension-dependent one stops with an error instead of running anything).
 */
export class GitConfigFilterError extends Error {
  override readonly name = 'GitConfigFilterError';

  constructor(
    readonly reason: GitConfigFilterFailure,
    options: { readonly cause?: unknown } = {},
  ) {
    super(`repository git config not filtered: ${reason}`, options);
  }
}

/**
 * Reads one repository config file with the host's git and returns a filtered, re-serialised
 * copy. Git parses (never a hand-rolled parser: the copy means what git would read); includes
 * are not followed, so an `include.path` is a dropped key, not more input. The file is opened
 * here, never through a symlink, and its bytes go to git on stdin (`--file -`): what git parses
 * is exactly what was checked, even if the path is swapped meanwhile. Throws
 * `GitConfigFilterError` when there is no listing to filter (see there: bind an empty config),
 * `TypeError` for a relative path, and the abort reason on abort. A repeat on an unchanged file
 * costs one `lstat`.
 */
export async function filterGitConfig(
  configFile: string,
  options: FilterGitConfigOptions = {},
): Promise<FilteredGitConfig> {
  if (!path.isAbsolute(configFile)) {
    throw new TypeError('toolhost: filterGitConfig needs an absolute config path');
  }
  const { signal } = options;
  signal?.throwIfAborted();
  const gitFile = options.gitFile ?? (await resolveHostGit());
  if (gitFile === undefined) throw new GitConfigFilterError('git_not_found');
  const before = fingerprint(await statConfig(configFile));
  const cacheKey = `${gitFile}\0${configFile}`;
  const cached = cache.get(cacheKey);
  if (cached !== undefined && cached.fingerprint === before) {
    // Re-insert: the Map's order is the eviction order, so a hit moves to the young end.
    cache.delete(cacheKey);
    cache.set(cacheKey, cached);
    return cached.result;
  }
  const { content, unchanged } = await readConfig(configFile, before);
  const run = await runHostGit({
    gitFile,
    args: ['config', '--file', '-', '--no-includes', '--list', '-z'],
    env: LISTING_ENV,
    timeoutMs: TIMEOUT_MS,
    maxOutputBytes: MAX_BYTES,
    input: content,
    signal,
  });
  if (!run.ok) {
    throw new GitConfigFilterError(run.reason === 'spawn_failed' ? 'git_not_found' : run.reason);
  }
  // Non-zero: git rejected the file (a syntax error). A listed prefix is not used either.
  if (run.exitCode !== 0) throw new GitConfigFilterError('git_failed', { cause: run.exitCode });
  const { entries, unusable } = parseGitConfigListing(run.stdout);
  const kept = entries.flatMap((entry) => keepGitConfigEntry(entry) ?? []);
  const result: FilteredGitConfig = Object.freeze({
    text: serialiseGitConfig(kept),
    droppedKeys: unusable + entries.length - kept.length,
  });
  // Bytes that changed while being read are used once, never remembered under the old identity.
  if (unchanged && result.text.length <= MAX_CACHED_CHARS) {
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value ?? '');
    cache.set(cacheKey, { fingerprint: before, result });
  }
  return result;
}

// Git reads only stdin; these keep the host's own config and HOME out all the same.
const LISTING_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  HOME: '/nonexistent',
  PATH: '/usr/bin:/bin',
};

const TIMEOUT_MS = 5000;
// Far above any real repository config; a larger one (or its listing) is refused, not cut.
const MAX_BYTES = 4 * 1024 * 1024;
const MAX_CACHED = 256;
// A hostile config may make its filtered copy large: returned, but not held for reuse.
const MAX_CACHED_CHARS = 256 * 1024;

// Keyed by path, checked by the file's identity: (dev, ino) names the file itself (its last
// component is never a symlink), and ctime changes on every write, even one that keeps the size
// and resets the mtime. The realpath adds nothing to that, and would cost a syscall per
// directory on every hit.
const cache = new Map<
  string,
  { readonly fingerprint: string; readonly result: FilteredGitConfig }
>();

// A symlink is refused: inside the sandbox the copy would show a file from outside its view.
// A FIFO or a device would hang or stream forever: only a regular file is read.
async function statConfig(configFile: string): Promise<BigIntStats> {
  let stats: BigIntStats;
  try {
    stats = await lstat(configFile, { bigint: true });
  } catch (error) {
    throw new GitConfigFilterError('config_unreadable', { cause: error });
  }
  checkConfigStats(stats);
  return stats;
}

function checkConfigStats(stats: BigIntStats): void {
  if (!stats.isFile()) throw new GitConfigFilterError('config_unreadable');
  if (stats.size > BigInt(MAX_BYTES)) throw new GitConfigFilterError('config_too_large');
}

function fingerprint(stats: BigIntStats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

// O_NOFOLLOW: a symlink swapped in after the lstat fails here instead of being read. O_NONBLOCK:
// opening a FIFO swapped in returns at once (and fstat refuses it) instead of waiting for a writer.
async function readConfig(
  configFile: string,
  before: string,
): Promise<{ readonly content: Buffer; readonly unchanged: boolean }> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(
      configFile,
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
    const opened = await handle.stat({ bigint: true });
    checkConfigStats(opened);
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      const { bytesRead, buffer } = await handle.read(Buffer.alloc(64 * 1024), 0, 64 * 1024, null);
      if (bytesRead === 0) break;
      size += bytesRead;
      // A writer may grow the file after the size check: the cap holds for what is read.
      if (size > MAX_BYTES) throw new GitConfigFilterError('config_too_large');
      chunks.push(buffer.subarray(0, bytesRead));
    }
    const read = fingerprint(await handle.stat({ bigint: true }));
    return {
      content: Buffer.concat(chunks),
      unchanged: fingerprint(opened) === before && read === before,
    };
  } catch (error) {
    if (error instanceof GitConfigFilterError) throw error;
    throw new GitConfigFilterError('config_unreadable', { cause: error });
  } finally {
    await handle?.close();
  }
}
