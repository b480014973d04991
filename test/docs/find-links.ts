import { stripCodeSpans, type ParsedMarkdown } from './parse-markdown.js';

/** A link destination found in prose, with the 1-based line it sits on. */
export interface FoundLink {
  readonly target: string;
  readonly line: number;
}

// The destination of an inline link or image: matched from "](" so nested text such as a badge
// `[![alt](img)](href)` yields both destinations.
const INLINE = /\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
// A reference definition: `[label]: destination "title"`.
const REFERENCE = /^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/;
// Raw HTML links and images, which GitHub renders too.
const HTML = /<(?:a|img)\b[^>]*?\b(?:href|src)\s*=\s*["']([^"']+)["']/gi;

/** Finds every link destination in a page's prose, skipping code spans and fenced blocks. */
export function findLinks(page: ParsedMarkdown): FoundLink[] {
  const links: FoundLink[] = [];
  for (const { text, line } of page.prose) {
    const prose = stripCodeSpans(text);
    const reference = REFERENCE.exec(prose);
    if (reference !== null) links.push({ target: unbracket(reference[1]!), line });
    for (const match of prose.matchAll(INLINE)) links.push({ target: unbracket(match[1]!), line });
    for (const match of prose.matchAll(HTML)) links.push({ target: match[1]!, line });
  }
  return links;
}

/** True for a link that leaves the repository (a scheme such as https: or mailto:). */
export function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

function unbracket(target: string): string {
  return target.startsWith('<') && target.endsWith('>') ? target.slice(1, -1) : target;
}
