/**
 * Makes untrusted text inert on a terminal: control characters (ESC sequences that recolour,
 * retitle or rewrite the screen, a `\r` that hides a line) become visible caret notation. Only
 * newline and tab pass. Applied when stdout/stderr is a TTY; piped output stays byte-exact.
 */
export function sanitizeForTerminal(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]/g, (char) => {
    const code = char.charCodeAt(0);
    if (code < 0x20) return `^${String.fromCharCode(code + 64)}`;
    if (code === 0x7f) return '^?';
    return '\uFFFD';
  });
}

/** One display line: also shows newline and tab, so a value cannot fake extra prompt lines. */
export function sanitizeLineForTerminal(text: string): string {
  return sanitizeForTerminal(text).replace(/\n/g, '^J').replace(/\t/g, '^I');
}
