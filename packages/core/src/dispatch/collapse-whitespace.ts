// The event summary's one-line form: each whitespace run as one space.

// `\s+` → one space, replacing only what changes: a lone space (most of them) is no match, so
// ordinary text costs a scan rather than a replacement per word.
export function collapseWhitespace(text: string): string {
  return mayCollapse(text) ? text.replace(WHITESPACE_TO_COLLAPSE, ' ') : text;
}

// False only when the pattern matches nothing: no unit `\s` might be (every control unit, no-break
// space, everything from U+1680 up) other than a lone space. Cheaper than the regex's own scan.
export function mayCollapse(text: string): boolean {
  let afterSpace = false;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit === 0x20) {
      if (afterSpace) return true;
      afterSpace = true;
    } else if (unit < 0x20 || unit === 0xa0 || unit >= 0x1680) return true;
    else afterSpace = false;
  }
  return false;
}

const WHITESPACE_TO_COLLAPSE = /\s\s+|[^\S ]/g;
