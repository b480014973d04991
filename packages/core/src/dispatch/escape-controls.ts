/**
 * `line` with every control character but tab and newline (and the Unicode line and paragraph
 * separators) shown as a `\uXXXX` escape: model text shown to an approver cannot drive their
 * terminal or fake a line break.
 */
export function escapeControls(line: string): string {
  return line.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
