import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import { keepGitConfigEntry } from './filter-git-config-allowlist.js';
import { parseGitConfigListing } from './filter-git-config-syntax.js';

/**
 * The names of a repository made during a run (`git init`, a planted `sub/.git`) that the host's
 * git must not use: a `config` holding any key the sandbox's own allowlist would drop (a program,
 * a helper, an include, `extensions.worktreeConfig`…) or that git cannot parse, and a `hooks/`
 * holding anything but git's `*.sample` files. Such a repository is reached by the user's plain
 * `git status` at the root once the run added it to the index as a gitlink: git then runs
 * `git status` inside it, with its config. Synchronous, like the teardown that calls it: the
 * host's git lists the config (never a hand-rolled parser), as `filterGitConfig` does.
 */
export function newRepositorySuspects(gitDir: string): string[] {
  const suspects: string[] = [];
  if (!configIsPlain(path.join(gitDir, 'config'))) suspects.push('config');
  if (!hooksAreSamples(path.join(gitDir, 'hooks'))) suspects.push('hooks');
  return suspects;
}

const MAX_CONFIG_BYTES = 4 * 1024 * 1024;
// Fixed system directories, never PATH: the host's PATH may name a directory the agent wrote.
const GIT_CANDIDATES = ['/usr/bin/git', '/bin/git', '/usr/local/bin/git'] as const;
// Git reads only stdin; these keep the host's own config and HOME out all the same.
const LISTING_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  HOME: '/nonexistent',
  PATH: '/usr/bin:/bin',
};

function configIsPlain(configFile: string): boolean {
  let fd: number;
  try {
    // O_NOFOLLOW: a symlinked config is not plain; O_NONBLOCK: a FIFO must not hang the host.
    fd = openSync(configFile, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
  let content: Buffer;
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.size > MAX_CONFIG_BYTES) return false;
    content = Buffer.alloc(info.size);
    if (readSync(fd, content, 0, info.size, 0) !== info.size) return false;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
  const git = GIT_CANDIDATES.find(isFile);
  if (git === undefined) return false;
  let listing: Buffer;
  try {
    listing = execFileSync(git, ['config', '--file', '-', '--no-includes', '--list', '-z'], {
      input: content,
      env: LISTING_ENV,
      cwd: '/',
      timeout: 5000,
      maxBuffer: MAX_CONFIG_BYTES,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
  } catch {
    // Git rejects it (or hangs): the host's git would not read it as the filter saw it.
    return false;
  }
  const { entries, unusable } = parseGitConfigListing(listing);
  return unusable === 0 && entries.every((entry) => keepGitConfigEntry(entry) !== undefined);
}

function hooksAreSamples(hooks: string): boolean {
  try {
    if (!lstatSync(hooks).isDirectory()) return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
  try {
    return readdirSync(hooks).every((name) => name.endsWith('.sample'));
  } catch {
    return false;
  }
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
