import { sanitizeLineForTerminal } from '../terminal/sanitize-for-terminal.js';

// Code points that change how a line reads without showing themselves: bidi overrides, isolates
// and marks (a `\u202E` makes `exe.txt` read `txt.exe`), zero-width and other default-ignorable
// characters (two different paths look the same), tag characters (invisible ASCII), line and
// paragraph separators (a renderer may break the line there), spaces that pass for U+0020, lone
// surrogates, and private-use or unassigned code points (no agreed glyph).
const INVISIBLE =
  /[\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}]|(?! )\p{Zs}/gu;

/**
 * One model-controlled value as one inert, honest line of an approval prompt, in a terminal or
 * an MCP client alike: control characters in caret notation (no escape sequence, no fake extra
 * line) and every invisible or direction-changing code point as a visible `\uXXXX` escape, so the
 * human approves exactly the characters that will be used.
 */
export function escapeForPrompt(text: string): string {
  return sanitizeLineForTerminal(text).replace(INVISIBLE, (char) => {
    const code = char.codePointAt(0) ?? 0;
    const hex = code.toString(16).toUpperCase();
    return code > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, '0')}`;
  });
}
