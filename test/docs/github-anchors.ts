import { stripCodeSpans, type ParsedMarkdown } from './parse-markdown.js';

/** Every anchor GitHub renders for a page: heading slugs (deduplicated) and HTML `id`/`name`s. */
export function githubAnchors(page: ParsedMarkdown): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  page.prose.forEach(({ text }, index) => {
    const heading = headingText(text, page.prose[index + 1]?.text);
    if (heading !== undefined) {
      const base = githubSlug(heading);
      // GitHub numbers a repeated heading: the second "Usage" is #usage-1, the third #usage-2.
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const match of stripCodeSpans(text).matchAll(
      /<[a-z]+\b[^>]*?\b(?:id|name)\s*=\s*["']([^"']+)["']/gi,
    )) {
      anchors.add(match[1]!);
    }
  });
  return anchors;
}

/** GitHub's slug of a heading's text: lowercase, punctuation dropped, each space a `-`. */
export function githubSlug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // A link or image renders as its text.
    .replace(/<[^>]+>/g, '') // Inline HTML renders as its content.
    .replace(/`/g, '')
    .replace(/\*\*|__|\*/g, '');
  // github-slugger's rule: keep letters, marks, numbers, connector punctuation (`_`), `-` and
  // spaces; drop everything else, then turn each space into a `-`.
  return rendered
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

function headingText(text: string, next: string | undefined): string | undefined {
  const atx = /^ {0,3}#{1,6}(?:\s+(.*?))?(?:\s+#+)?\s*$/.exec(text);
  if (atx !== null) return atx[1] ?? '';
  // A setext heading: a paragraph line underlined with === or ---.
  const underlined = next !== undefined && /^ {0,3}(=+|-+)\s*$/.test(next);
  const paragraph = text.trim() !== '' && !/^\s*([-*+>|]|\d+\.)/.test(text) && !/^ {4}/.test(text);
  return underlined && paragraph ? text.trim() : undefined;
}
