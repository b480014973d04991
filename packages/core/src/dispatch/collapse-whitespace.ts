// The event summary's one-line form: each whitespace run as one space.

// `\s+` → one space, replacing only what changes: a lone space (most of them) is no match, so
// ordinary text costs a scan rather than a replacement per word.
export function collapseWhitespace(text: string): string {
  return text.replace(WHITESPACE_TO_COLLAPSE, ' ');
}

const WHITESPACE_TO_COLLAPSE = /\s\s+|[^\S ]/g;
