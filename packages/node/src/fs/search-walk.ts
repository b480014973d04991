import { closeSync } from 'node:fs';
import type { Dirent } from 'node:fs';
import { ToolPolicyError } from '@toolhost/core';
import type { AbortSignalLike } from '@toolhost/core/host';
import { descriptorPath } from './descriptor-path.js';
import type { DirectoryRef } from './descriptor-path.js';
import { throwIfAborted } from './fs-error.js';
import type { GitignoreStack } from './gitignore-stack.js';
import type { Jail } from './jail.js';
import { readChildFile } from './open-child-file.js';
import { createSearchLister } from './search-list.js';
import type { SearchLister } from './search-list.js';
import { openSearchDirectory } from './search-open-directory.js';
import type { SearchPace } from './search-pace.js';

const TOOL_ID = 'search_files';
/** Largest ignore file read; past it the file is taken as empty rather than cut mid-rule. */
export const MAX_IGNORE_FILE_BYTES = 256 * 1024;

/** How `walkSearchTree` decides what to skip and what it does with each file. */
export interface SearchWalkOptions {
  /** The start directory's path below the top the rules are relative to (`''` or `a/b/`). */
  readonly prefix: string;
  /** The rules in force at the start directory (from its ancestors). */
  readonly rules: GitignoreStack;
  readonly skipNodeModules: boolean;
  readonly maxDepth: number;
  readonly signal?: AbortSignalLike | undefined;
  /** When the synchronous walk gives the event loop a turn (shared with `visitFile`). */
  readonly pace: SearchPace;
  /**
   * A run of regular files the rules let through, listed one after another in `directory` with
   * no subdirectory between them (so a batch read keeps the walk's order); `relatives[i]` is
   * `names[i]`'s path below the start. False stops the walk.
   */
  readonly visitFiles: (
    directory: DirectoryRef,
    names: readonly string[],
    relatives: readonly string[],
  ) => boolean | Promise<boolean>;
  /** A file or directory the rules (or the node_modules default) passed over. */
  readonly onIgnored: () => void;
}

/**
 * Walks a verified directory depth-first in code-unit order for a search, holding only the
 * open chain from the start down (one descriptor and one name list per level), never the
 * tree. Floor entries are left out by the listing, `.git` is never entered, a symlink is never
 * followed, each subdirectory is opened below its parent's descriptor and verified, and each
 * directory's `.gitignore` (and a repository's `.git/info/exclude`) applies below it. Its
 * system calls are synchronous (each answers from the page cache in microseconds, less than a
 * thread-pool round trip); it gives the event loop a turn as `pace` says and checks the signal
 * then. Resolves false when `visitFile` stopped it.
 */
export async function walkSearchTree(
  jail: Jail,
  start: DirectoryRef,
  options: SearchWalkOptions,
): Promise<boolean> {
  const walker: Walker = { jail, options, lister: createSearchLister(jail.floor) };
  return walkDirectory(walker, start, { relative: '', depth: 0, rules: options.rules });
}

interface Walker {
  readonly jail: Jail;
  readonly options: SearchWalkOptions;
  readonly lister: SearchLister;
}

interface Level {
  readonly relative: string;
  readonly depth: number;
  readonly rules: GitignoreStack;
}

async function walkDirectory(
  walker: Walker,
  directory: DirectoryRef,
  level: Level,
): Promise<boolean> {
  throwIfAborted(TOOL_ID, walker.options.signal);
  const finished = await walkEntries(walker, directory, level);
  // Its files were read below its descriptor: had it been renamed away (out of the root, onto
  // the floor) since it was verified, what they said must not be returned. Fail closed.
  if (descriptorPath(directory.fd, directory.path) !== directory.path)
    throw new ToolPolicyError(TOOL_ID, 'symlink_refused');
  return finished;
}

async function walkEntries(
  walker: Walker,
  directory: DirectoryRef,
  level: Level,
): Promise<boolean> {
  const { jail, options } = walker;
  const dirents = walker.lister.list(directory);
  const rules = await directoryRules(
    jail,
    directory,
    dirents,
    options.prefix + level.relative,
    level.rules,
  );
  const run: FileRun = { names: [], relatives: [] };
  for (const dirent of dirents) {
    const { name } = dirent;
    // A repository's internals: never searched, whatever the rules say.
    if (name === '.git') continue;
    const relative = level.relative + name;
    if (dirent.isDirectory()) {
      if (options.skipNodeModules && name === 'node_modules') {
        options.onIgnored();
        continue;
      }
      if (rules.ignores(`${options.prefix}${relative}/`)) {
        options.onIgnored();
        continue;
      }
      if (level.depth + 1 > options.maxDepth) continue;
      // The files listed before it are visited before it is entered: the walk's order.
      const visited = visitRun(options, directory, run);
      if (visited === false || (visited !== true && !(await visited))) return false;
      // A tree of empty directories reads no file: the walk keeps the pace too.
      if (options.pace.due()) await options.pace.pause();
      const child = openSearchDirectory(directory, name, jail.floor);
      // Swapped for a symlink, renamed out of the root or gone since the listing: not searched.
      if (child === undefined) continue;
      try {
        const next = { relative: `${relative}/`, depth: level.depth + 1, rules };
        if (!(await walkDirectory(walker, child, next))) return false;
      } finally {
        closeSync(child.fd);
      }
      continue;
    }
    // A symlink is never followed, a FIFO or device never opened.
    if (!dirent.isFile()) continue;
    if (rules.ignores(options.prefix + relative)) {
      options.onIgnored();
      continue;
    }
    run.names.push(name);
    run.relatives.push(relative);
  }
  return visitRun(options, directory, run);
}

interface FileRun {
  names: string[];
  relatives: string[];
}

// Hands the run to `visitFiles` and starts a new one (the visitor may keep the arrays across
// a pause). Synchronous when the visitor is: a promise per directory is not free.
function visitRun(
  options: SearchWalkOptions,
  directory: DirectoryRef,
  run: FileRun,
): boolean | Promise<boolean> {
  if (run.names.length === 0) return true;
  const visited = options.visitFiles(directory, run.names, run.relatives);
  run.names = [];
  run.relatives = [];
  return visited;
}

/**
 * The rules in force inside `directory`: its parent's, then the repository's
 * `.git/info/exclude` if it holds a `.git`, then its own `.gitignore` (the deepest decides).
 */
export async function directoryRules(
  jail: Jail,
  directory: DirectoryRef,
  dirents: readonly Dirent[],
  base: string,
  inherited: GitignoreStack,
): Promise<GitignoreStack> {
  let rules = inherited;
  if (dirents.some((dirent) => dirent.name === '.git' && dirent.isDirectory())) {
    const exclude = await readExclude(jail, directory);
    if (exclude !== undefined) rules = rules.push(exclude, base);
  }
  if (dirents.some((dirent) => dirent.name === '.gitignore' && dirent.isFile())) {
    const gitignore = readSmallText(directory, '.gitignore');
    if (gitignore !== undefined) rules = rules.push(gitignore, base);
  }
  return rules;
}

async function readExclude(jail: Jail, directory: DirectoryRef): Promise<string | undefined> {
  const git = await jail.openChildDirectory(directory, '.git');
  if (git === undefined) return undefined;
  try {
    const info = await jail.openChildDirectory(git, 'info');
    if (info === undefined) return undefined;
    try {
      return readSmallText(info, 'exclude');
    } finally {
      await info.handle.close();
    }
  } finally {
    await git.handle.close();
  }
}

function readSmallText(directory: DirectoryRef, name: string): string | undefined {
  const buffer = Buffer.allocUnsafe(MAX_IGNORE_FILE_BYTES);
  const read = readChildFile(directory, name, buffer);
  return read.kind === 'read' ? buffer.toString('utf8', 0, read.length) : undefined;
}
