import { homedir } from 'node:os';

import { CREDENTIAL_STORES, type CredentialStore } from './credential-stores.js';
import { foldPath } from './fold-segment.js';

export { CREDENTIAL_STORES, type CredentialStore } from './credential-stores.js';
export { foldPath, foldSegment } from './fold-segment.js';

/** What the floors need to know about one host: its private state and its config file. */
export interface FloorContext {
  readonly stateDir: string;
  /** The run's spill directory: inside the state dir, yet readable (never writable). */
  readonly spillDir: string;
  readonly configFile: string;
  /** The host's home directory (default `os.homedir()`): its credential stores are floored whole. */
  readonly homeDir?: string;
}

/** Shell startup files: run at login or by every interactive shell (fs floor and CLI approval). */
export const SHELL_STARTUP_FILES: readonly string[] = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.bash_aliases',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.zlogout',
  'config.fish',
  '.cshrc',
  '.tcshrc',
  '.kshrc',
  '.mkshrc',
  '.login',
  '.logout',
  '.xprofile',
  '.xinitrc',
  '.xsession',
  '.pam_environment',
];

/** Spec §3, write floor: paths an allowed tool would run, or a login would source. */
const WRITE_STORES: readonly CredentialStore[] = [
  // VCS internals (hooks run code) and the keys directory (authorized_keys).
  { name: '.git', match: 'tree' },
  { name: '.ssh', match: 'tree' },
  // Git's XDG config (hooksPath, aliases, core.fsmonitor) runs code like `.gitconfig` does.
  { name: '.config/git', match: 'tree' },
  // Fish autoloads every file in its config dir (conf.d, functions), not only config.fish.
  { name: '.config/fish', match: 'tree' },
  // Shell startup files (run at login or by every interactive shell).
  ...[
    '.gitconfig',
    ...SHELL_STARTUP_FILES,
    // Package-manager config an allowed `yarn`/`pnpm` command would obey (a script shell, a hook).
    '.yarnrc',
    '.yarnrc.yml',
    '.pnpmfile.cjs',
    '.pnpmfile.mjs',
  ].map((name): CredentialStore => ({ name, match: 'file' })),
];

// Absolute system paths on the write floor. Only root can write them, and there a write is a
// host takeover (cron, sudoers, kernel tunables, sysrq). Unconditional rather than gated on
// `getuid() === 0`: for any other user the kernel refuses the write anyway, so the floor only
// turns an EACCES into a typed denial, and the floor stays a pure function of the path.
const SYSTEM_WRITE_TREES = ['/etc', '/sys', '/proc/sys', '/proc/sysrq-trigger'].map(foldPath);

const PROC_SECRETS = new Set(['environ', 'mem']);

// The `.git` directory's own config files, and the same inside a submodule's repository
// (`.git/modules/<name>/…`, nested) or a linked worktree's (`.git/worktrees/<name>/…`).
const GIT_CONFIG_FILES = new Set(['config', 'config.worktree', 'credentials']);
const GIT_NESTED_DIRECTORIES = new Set(['modules', 'worktrees']);

/** A table compiled for lookups that cost a set probe per segment, not a scan of the table. */
interface CompiledStores {
  /** Single-segment trees: any segment. */
  readonly components: ReadonlySet<string>;
  /** Multi-segment trees, keyed by their first segment. */
  readonly runs: ReadonlyMap<string, readonly (readonly string[])[]>;
  /** Files, keyed by their last segment. */
  readonly tails: ReadonlyMap<string, readonly (readonly string[])[]>;
}

function compile(stores: readonly CredentialStore[]): CompiledStores {
  const components = new Set<string>();
  const runs = new Map<string, string[][]>();
  const tails = new Map<string, string[][]>();
  for (const { name, match } of stores) {
    const segments = foldPath(name);
    if (match === 'tree' && segments.length === 1) components.add(segments[0] ?? '');
    else if (match === 'tree') append(runs, segments[0] ?? '', segments);
    else append(tails, segments.at(-1) ?? '', segments);
  }
  return { components, runs, tails };
}

function append(map: Map<string, string[][]>, key: string, value: string[]): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

function matchesStores(segments: readonly string[], stores: CompiledStores): boolean {
  for (let index = 0; index < segments.length; index += 1) {
    const segment = segments[index] ?? '';
    if (stores.components.has(segment)) return true;
    for (const run of stores.runs.get(segment) ?? []) {
      if (run.every((part, offset) => segments[index + offset] === part)) return true;
    }
  }
  for (const tail of stores.tails.get(segments.at(-1) ?? '') ?? []) {
    const from = segments.length - tail.length;
    if (from >= 0 && tail.every((part, offset) => segments[from + offset] === part)) return true;
  }
  return false;
}

const READ_FLOOR = compile(CREDENTIAL_STORES);
const WRITE_FLOOR = compile(WRITE_STORES);
const HOME_TREES = CREDENTIAL_STORES.flatMap((store) =>
  store.home === undefined ? [] : [foldPath(store.home)],
);

/** Every credential store's place under a home, for the process sandbox to mask. */
export const HOME_CREDENTIAL_STORES: readonly string[] = CREDENTIAL_STORES.flatMap((store) =>
  store.home === undefined ? [] : [store.home],
);

/** The read floor (every tier, every mode), on any spelling of a path. */
export function isOnReadFloor(target: string, context: FloorContext): boolean {
  return readFloor(foldPath(target), context, isAbsolute(target));
}

/** The read floor on an absolute path's segments already folded by `foldSegment` (a listing folds its directory once). */
export function isFoldedOnReadFloor(segments: readonly string[], context: FloorContext): boolean {
  return readFloor(segments, context, true);
}

/** The write floor: the read floor too, since writing a secret store plants credentials. */
export function isOnWriteFloor(target: string, context: FloorContext): boolean {
  return writeFloor(foldPath(target), context, isAbsolute(target));
}

/** The write floor on an absolute path's segments already folded by `foldSegment` (the sandbox's workspace walk). */
export function isFoldedOnWriteFloor(segments: readonly string[], context: FloorContext): boolean {
  return writeFloor(segments, context, true);
}

// `absolute`: whether the segments start at `/`. Places (the home, `/etc`) are matched only
// then: a relative `etc/app.conf` inside the workspace is not `/etc`. The jail also checks the
// resolved absolute path, so a relative spelling never escapes them.
function readFloor(segments: readonly string[], context: FloorContext, absolute: boolean): boolean {
  if (matchesStores(segments, READ_FLOOR)) return true;
  const base = segments.at(-1) ?? '';
  if (base === '.env' || base.startsWith('.env.')) return true;
  if (isGitConfig(segments)) return true;
  // A process's environment holds the host's credentials; only the full tier can name it.
  if (segments[0] === 'proc' && PROC_SECRETS.has(base)) return true;
  if (!absolute) return false;
  const { stateDir, spillDir, homeDir } = foldedContext(context);
  if (homeDir !== undefined && isWithin(segments, homeDir)) {
    const below = segments.slice(homeDir.length);
    if (HOME_TREES.some((tree) => isWithin(below, tree))) return true;
  }
  // The run's own spill files are paged with read_file; every other state (other runs' spills,
  // media objects) stays out of reach.
  return isWithin(segments, stateDir) && !isWithin(segments, spillDir);
}

function writeFloor(
  segments: readonly string[],
  context: FloorContext,
  absolute: boolean,
): boolean {
  if (matchesStores(segments, WRITE_FLOOR)) return true;
  if (absolute) {
    if (SYSTEM_WRITE_TREES.some((tree) => isWithin(segments, tree))) return true;
    const { stateDir, configFile } = foldedContext(context);
    if (isWithin(segments, stateDir)) return true;
    if (sameSegments(segments, configFile)) return true;
  }
  return readFloor(segments, context, absolute);
}

// `<.git>/config`, and the same below `<.git>/modules/…` or `<.git>/worktrees/…`, where a
// submodule's remote URL (often with a token in it) lives.
function isGitConfig(segments: readonly string[]): boolean {
  if (!GIT_CONFIG_FILES.has(segments.at(-1) ?? '')) return false;
  const gitDir = segments.lastIndexOf('.git', -2);
  if (gitDir < 0) return false;
  return gitDir === segments.length - 2 || GIT_NESTED_DIRECTORIES.has(segments[gitDir + 1] ?? '');
}

function isAbsolute(target: string): boolean {
  return target.startsWith('/') || target.startsWith('\\');
}

// A context's own paths are folded once, not on every check of every listing entry.
interface FoldedContext {
  readonly stateDir: string[];
  readonly spillDir: string[];
  readonly configFile: string[];
  /** Absent when there is no absolute home (a service user's `/` counts: it is absolute). */
  readonly homeDir: string[] | undefined;
}
const foldedContexts = new WeakMap<FloorContext, FoldedContext>();
function foldedContext(context: FloorContext): FoldedContext {
  let folded = foldedContexts.get(context);
  if (folded === undefined) {
    const home = context.homeDir ?? homedir();
    folded = {
      stateDir: foldPath(context.stateDir),
      spillDir: foldPath(context.spillDir),
      configFile: foldPath(context.configFile),
      homeDir: home.startsWith('/') ? foldPath(home) : undefined,
    };
    foldedContexts.set(context, folded);
  }
  return folded;
}

function isWithin(segments: readonly string[], base: readonly string[]): boolean {
  return (
    base.length <= segments.length && base.every((segment, index) => segments[index] === segment)
  );
}

function sameSegments(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && isWithin(a, b);
}

/** The read floor's tables, for `floor-level.ts` (which judges one directory's entries at once). */
export const READ_FLOOR_TABLES = {
  stores: READ_FLOOR,
  homeTrees: HOME_TREES,
  gitConfigFiles: GIT_CONFIG_FILES,
  gitNestedDirectories: GIT_NESTED_DIRECTORIES,
  procSecrets: PROC_SECRETS,
  foldedContext,
} as const;
