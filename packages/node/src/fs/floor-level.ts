import { isFoldedOnReadFloor, READ_FLOOR_TABLES } from './floor.js';
import type { FloorContext } from './floor.js';

/** Whether one entry of a directory, its name folded by `foldSegment`, is on the read floor. */
export type LevelFloor = (foldedName: string) => boolean;

/**
 * `isFoldedOnReadFloor([...directory, name], context)` for each entry `name` of one directory
 * (both folded): what depends on the directory alone (its stores, `.git`, home and state
 * places) is judged once, leaving a set probe and a few name tests per entry. Exactly the same
 * decision (floor-level.test.ts compares it with a frozen copy of the per-entry check); where
 * the directory's share cannot be told apart from the name's, each entry takes the full check.
 */
export function createLevelFloor(directory: readonly string[], context: FloorContext): LevelFloor {
  const judged = judgeLevel(directory, context);
  if (judged === undefined) return (name) => isFoldedOnReadFloor([...directory, name], context);
  if (judged === true) return () => true;
  const { names, gitConfig, proc } = judged;
  const { gitConfigFiles, procSecrets } = READ_FLOOR_TABLES;
  return (name) =>
    ANYWHERE.has(name) ||
    names.has(name) ||
    name === '.env' ||
    name.startsWith('.env.') ||
    (gitConfig && gitConfigFiles.has(name)) ||
    (proc && procSecrets.has(name));
}

/** `isWithin([...directory, name], base)` as a function of the name. */
type Within = 'always' | 'never' | { readonly name: string };

function withinLevel(directory: readonly string[], base: readonly string[]): Within {
  if (base.length > directory.length + 1) return 'never';
  const shared = Math.min(base.length, directory.length);
  for (let index = 0; index < shared; index += 1)
    if (directory[index] !== base[index]) return 'never';
  return base.length <= directory.length ? 'always' : { name: base[directory.length] ?? '' };
}

interface LevelShare {
  /** Names floored by a store, a home tree or the state directory, given this directory. */
  readonly names: ReadonlySet<string>;
  /** Below a `.git` (or its modules/worktrees): its config files are floored. */
  readonly gitConfig: boolean;
  /** Below `/proc`: a process's environ and mem are floored. */
  readonly proc: boolean;
}

// Names floored wherever they are: a single-segment tree (or a run that short) is met at the
// name itself, and a one-segment file store (or shorter) ends any path. The same for every
// directory, so gathered once.
const ANYWHERE = anywhereNames();
// The file stores of two segments or more, by the segment before their last: only a directory
// ending in it can hold one.
const TAILS_BY_PARENT = tailsByParent();

function anywhereNames(): ReadonlySet<string> {
  const { stores } = READ_FLOOR_TABLES;
  const names = new Set(stores.components);
  for (const [first, runs] of stores.runs)
    for (const run of runs) if (run.length <= 1) names.add(first);
  for (const [last, tails] of stores.tails)
    for (const tail of tails) if (tail.length <= 1) names.add(last);
  return names;
}

function tailsByParent(): ReadonlyMap<string, readonly (readonly string[])[]> {
  const byParent = new Map<string, (readonly string[])[]>();
  for (const tails of READ_FLOOR_TABLES.stores.tails.values())
    for (const tail of tails) {
      if (tail.length < 2) continue;
      const parent = tail[tail.length - 2] ?? '';
      const list = byParent.get(parent);
      if (list === undefined) byParent.set(parent, [tail]);
      else list.push(tail);
    }
  return byParent;
}

// Adds the name a term needs to `names`; true when the term holds whatever the name.
function holds(within: Within, names: Set<string>): boolean {
  if (within === 'always') return true;
  if (within !== 'never') names.add(within.name);
  return false;
}

// Whether `tail` ends `[...directory, last]`, read in place.
function endsWith(directory: readonly string[], last: string, tail: readonly string[]): boolean {
  const from = directory.length + 1 - tail.length;
  if (from < 0) return false;
  for (let offset = 0; offset < tail.length; offset += 1) {
    const at = from + offset;
    if ((at === directory.length ? last : directory[at]) !== tail[offset]) return false;
  }
  return true;
}

// `readFloor`'s terms, in its order, each split into the directory's part and the name's:
// true when every entry is floored, undefined when a term is no name set (take the full check).
// Loops, not callbacks: this runs once per directory listed.
function judgeLevel(
  directory: readonly string[],
  context: FloorContext,
): LevelShare | true | undefined {
  const { stores, homeTrees, gitNestedDirectories, foldedContext } = READ_FLOOR_TABLES;
  const names = new Set<string>();
  // `matchesStores`: a tree met at a directory segment or ending at the name (at the name
  // itself: `ANYWHERE`).
  for (let index = 0; index < directory.length; index += 1) {
    const segment = directory[index] ?? '';
    if (stores.components.has(segment)) return true;
    const runs = stores.runs.get(segment);
    if (runs === undefined) continue;
    const below = directory.slice(index);
    for (const run of runs) if (holds(withinLevel(below, run), names)) return true;
  }
  // A file store is looked up by the name itself, its last segment (one segment: `ANYWHERE`).
  const parent = directory.at(-1);
  for (const tail of (parent === undefined ? undefined : TAILS_BY_PARENT.get(parent)) ?? []) {
    const last = tail[tail.length - 1] ?? '';
    if (endsWith(directory, last, tail)) names.add(last);
  }
  // `isGitConfig`: the last `.git` before the name, and what follows it.
  const gitDirectory = directory.lastIndexOf('.git');
  const gitConfig =
    gitDirectory >= 0 &&
    (gitDirectory === directory.length - 1 ||
      gitNestedDirectories.has(directory[gitDirectory + 1] ?? ''));
  // `proc` is no secret's name, so a name alone (no directory) is never `/proc/<secret>`.
  const proc = directory.length > 0 && directory[0] === 'proc';
  const { stateDir, spillDir, homeDir } = foldedContext(context);
  if (homeDir !== undefined) {
    const home = withinLevel(directory, homeDir);
    if (home === 'always') {
      const below = directory.slice(homeDir.length);
      for (const tree of homeTrees) if (holds(withinLevel(below, tree), names)) return true;
    } else if (home !== 'never') {
      for (const tree of homeTrees) if (tree.length === 0) names.add(home.name);
    }
  }
  // Inside the state directory and not inside the run's spill directory.
  const state = withinLevel(directory, stateDir);
  const spill = withinLevel(directory, spillDir);
  if (state !== 'never' && spill !== 'always') {
    if (state === 'always') {
      if (spill === 'never') return true;
      // Every name but the spill directory's: no name set says that.
      return undefined;
    }
    if (spill === 'never' || spill.name !== state.name) names.add(state.name);
  }
  return { names, gitConfig, proc };
}
