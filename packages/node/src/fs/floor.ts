/** What the floors need to know about one host: its private state and its config file. */
export interface FloorContext {
  readonly stateDir: string;
  /** The run's spill directory: inside the state dir, yet readable (never writable). */
  readonly spillDir: string;
  readonly configFile: string;
}

// Spec §3, read floor. Compared after `foldSegment`, so `.ENV`, `.env.` and `.env::$DATA` match.
const READ_COMPONENTS = new Set(['.ssh', '.aws', '.gnupg', '.env']);
const READ_BASENAMES = new Set([
  '.gitconfig',
  '.git-credentials',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.pgpass',
  '.envrc',
  '.dockercfg',
  // SSH private keys wherever they are; the `.pub` halves stay readable.
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
  'id_ecdsa_sk',
  'id_ed25519_sk',
]);
const READ_PAIRS = new Set([
  '.docker/config.json',
  '.git/config',
  '.git/config.worktree',
  '.git/credentials',
  'git/credentials',
]);

const PROC_SECRETS = new Set(['environ', 'mem']);

// Spec §3, write floor: VCS internals (hooks run code), shell startup files (run at login), and
// package-manager config an allowed `yarn`/`pnpm` command would obey (a script shell, a hook file).
const WRITE_COMPONENTS = new Set(['.git', '.ssh']);
const WRITE_BASENAMES = new Set([
  '.gitconfig',
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
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
  '.yarnrc',
  '.yarnrc.yml',
  '.pnpmfile.cjs',
  '.pnpmfile.mjs',
]);

// Code points HFS+ ignores in names (git's is_hfs_dotgit list, widened to the Unicode property):
// `.g\u200cit` is `.git` there.
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
// NTFS 8.3 short name of `.git` (git's is_ntfs_dotgit).
const DOT_GIT_SHORT = /^git~\d+$/;

/**
 * Folds one path segment the way some filesystem could alias it: Unicode compatibility forms,
 * ignorable code points, case, Windows trailing dots/spaces and NTFS `:stream` suffixes.
 */
export function foldSegment(segment: string): string {
  let folded = segment.normalize('NFKC').replace(IGNORABLE, '').toLowerCase().normalize('NFKC');
  for (;;) {
    const colon = folded.indexOf(':');
    const next = (colon >= 0 ? folded.slice(0, colon) : folded).replace(/[. ]+$/, '');
    if (next === folded) break;
    folded = next;
  }
  return DOT_GIT_SHORT.test(folded) ? '.git' : folded;
}

/** Splits a path on either separator and folds each segment. */
export function foldPath(target: string): string[] {
  return target
    .split(/[/\\]+/)
    .filter((segment) => segment !== '')
    .map(foldSegment);
}

/** The read floor (every tier, every mode), on any spelling of a path. */
export function isOnReadFloor(target: string, context: FloorContext): boolean {
  return isFoldedOnReadFloor(foldPath(target), context);
}

/** The read floor on segments already folded by `foldSegment` (a listing folds its directory once). */
export function isFoldedOnReadFloor(segments: readonly string[], context: FloorContext): boolean {
  if (segments.some((segment) => READ_COMPONENTS.has(segment))) return true;
  const base = segments.at(-1) ?? '';
  if (base === '.env' || base.startsWith('.env.') || READ_BASENAMES.has(base)) return true;
  if (segments.length >= 2 && READ_PAIRS.has(`${segments.at(-2)}/${base}`)) return true;
  // A process's environment holds the host's credentials; only the full tier can name it.
  if (segments[0] === 'proc' && PROC_SECRETS.has(base)) return true;
  // The run's own spill files are paged with read_file; every other state (other runs' spills,
  // media objects) stays out of reach.
  const { stateDir, spillDir } = foldedContext(context);
  return isWithin(segments, stateDir) && !isWithin(segments, spillDir);
}

/** The write floor: the read floor too, since writing a secret store plants credentials. */
export function isOnWriteFloor(target: string, context: FloorContext): boolean {
  return isFoldedOnWriteFloor(foldPath(target), context);
}

/** The write floor on segments already folded by `foldSegment` (the sandbox's workspace walk). */
export function isFoldedOnWriteFloor(segments: readonly string[], context: FloorContext): boolean {
  if (segments.some((segment) => WRITE_COMPONENTS.has(segment))) return true;
  if (WRITE_BASENAMES.has(segments.at(-1) ?? '')) return true;
  const { stateDir, configFile } = foldedContext(context);
  if (isWithin(segments, stateDir)) return true;
  if (sameSegments(segments, configFile)) return true;
  return isFoldedOnReadFloor(segments, context);
}

// A context's own paths are folded once, not on every check of every listing entry.
const foldedContexts = new WeakMap<FloorContext, Record<keyof FloorContext, string[]>>();
function foldedContext(context: FloorContext): Record<keyof FloorContext, string[]> {
  let folded = foldedContexts.get(context);
  if (folded === undefined) {
    folded = {
      stateDir: foldPath(context.stateDir),
      spillDir: foldPath(context.spillDir),
      configFile: foldPath(context.configFile),
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
