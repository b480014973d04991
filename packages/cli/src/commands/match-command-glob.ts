/**
 * Whole-string `*`/`?` glob match for `explain`'s detail line (which glob allowed a command).
 * Greedy with one backtrack point, so it stays linear-ish and never builds a RegExp from config.
 * The pipeline's own matcher decides; this only names the entry.
 */
export function matchCommandGlob(glob: string, text: string): boolean {
  let g = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (g < glob.length && (glob[g] === '?' || glob[g] === text[t])) {
      g += 1;
      t += 1;
    } else if (g < glob.length && glob[g] === '*') {
      star = g;
      resume = t;
      g += 1;
    } else if (star !== -1) {
      g = star + 1;
      resume += 1;
      t = resume;
    } else {
      return false;
    }
  }
  while (g < glob.length && glob[g] === '*') g += 1;
  return g === glob.length;
}
