import ignore from 'ignore';

type Ignore = ignore.Ignore;

/**
 * The ignore rules in force in one directory of a walk: each `.gitignore` (and a repository's
 * `.git/info/exclude`) met from the top down, the deepest first to have an opinion deciding,
 * as git does. Immutable: a child directory pushes onto its parent's stack, so leaving the
 * directory is dropping the reference.
 */
export class GitignoreStack {
  static readonly empty = new GitignoreStack(undefined, undefined);

  private constructor(
    private readonly level: GitignoreLevel | undefined,
    private readonly parent: GitignoreStack | undefined,
  ) {}

  /**
   * A stack with `rules` (one file's text) on top; `base` is the directory the file sits in,
   * as a prefix of the paths later tested (`''` for the top, else ending in `/`).
   */
  push(rules: string, base: string): GitignoreStack {
    const level = new GitignoreLevel(rules, base);
    return level.isEmpty ? this : new GitignoreStack(level, this);
  }

  /** Whether `relative` (below the top, `/`-separated) is ignored; a directory's ends in `/`. */
  ignores(relative: string): boolean {
    const verdict = this.level?.test(relative);
    if (verdict === 'ignored') return true;
    // A negation (`!keep.log`) in a deeper file re-includes what a shallower one excluded.
    if (verdict === 'unignored') return false;
    return this.parent?.ignores(relative) ?? false;
  }
}

// `ignore` caches the answer for every path it has tested: one search tests every file in the
// tree, so the matcher is rebuilt from its text this often to keep memory flat.
const TESTS_PER_REBUILD = 4096;

class GitignoreLevel {
  readonly isEmpty: boolean;
  #matcher: Ignore;
  #tests = 0;

  constructor(
    private readonly rules: string,
    private readonly base: string,
  ) {
    this.#matcher = build(rules);
    this.isEmpty = !rules.split('\n').some((line) => {
      const trimmed = line.trim();
      return trimmed !== '' && !trimmed.startsWith('#');
    });
  }

  test(relative: string): 'ignored' | 'unignored' | undefined {
    // Rules only speak of paths below the directory their file is in.
    if (!relative.startsWith(this.base)) return undefined;
    const below = relative.slice(this.base.length);
    if (below === '' || below === '/') return undefined;
    this.#tests += 1;
    if (this.#tests > TESTS_PER_REBUILD) {
      this.#matcher = build(this.rules);
      this.#tests = 1;
    }
    const { ignored, unignored } = this.#matcher.test(below);
    return ignored ? 'ignored' : unignored ? 'unignored' : undefined;
  }
}

function build(rules: string): Ignore {
  // Git compares names case-sensitively unless core.ignoreCase says otherwise (off on Linux).
  return ignore({ ignoreCase: false }).add(rules);
}
