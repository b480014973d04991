// Code points HFS+ ignores in names (git's is_hfs_dotgit list, widened to the Unicode property):
// `.g\u200cit` is `.git` there.
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
// NTFS 8.3 short name of `.git` (git's is_ntfs_dotgit).
const DOT_GIT_SHORT = /^git~\d+$/;
// eslint-disable-next-line no-control-regex -- the whole ASCII range, NUL included
const ASCII = /^[\u0000-\u007f]*$/;
const DOT = 0x2e;
const SPACE = 0x20;
const COLON = 0x3a;
const CAPITAL_A = 0x41;
const CAPITAL_Z = 0x5a;

/**
 * Folds one path segment the way some filesystem could alias it: Unicode compatibility forms,
 * ignorable code points, case, Windows trailing dots/spaces and NTFS `:stream` suffixes.
 */
export function foldSegment(segment: string): string {
  if (isFoldedAlready(segment)) return segment;
  // ASCII is its own NFKC form and holds no ignorable code point: only case and the suffixes
  // remain (floor-level.test.ts checks this against the full fold).
  let folded = ASCII.test(segment)
    ? segment.toLowerCase()
    : segment.normalize('NFKC').replace(IGNORABLE, '').toLowerCase().normalize('NFKC');
  for (;;) {
    const last = folded.charCodeAt(folded.length - 1);
    if (last !== DOT && last !== SPACE && !folded.includes(':')) break;
    const colon = folded.indexOf(':');
    const next = (colon >= 0 ? folded.slice(0, colon) : folded).replace(/[. ]+$/, '');
    if (next === folded) break;
    folded = next;
  }
  return folded.startsWith('git~') && DOT_GIT_SHORT.test(folded) ? '.git' : folded;
}

// Most names: ASCII without a capital or a `:`, not ending in `.` or a space, not `git~…`.
// Every step of the fold leaves such a name as it is.
function isFoldedAlready(segment: string): boolean {
  const length = segment.length;
  for (let index = 0; index < length; index += 1) {
    const code = segment.charCodeAt(index);
    if (code >= 0x80 || code === COLON || (code >= CAPITAL_A && code <= CAPITAL_Z)) return false;
  }
  const last = segment.charCodeAt(length - 1);
  return last !== DOT && last !== SPACE && !segment.startsWith('git~');
}

/** Splits a path on either separator and folds each segment. */
export function foldPath(target: string): string[] {
  return target
    .split(/[/\\]+/)
    .filter((segment) => segment !== '')
    .map(foldSegment);
}
