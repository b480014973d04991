// The characters JSON's one-letter escapes stand for (`\/` included: JSON allows it on input).
const SIMPLE: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

const ESCAPE = /\\(?:u([0-9A-Fa-f]{4})|(["\\/bfnrt]))/g;

/**
 * `text` with every JSON string escape (`\n`, `\t`, `\"`, `\\`, `\uXXXX` …) read as the
 * character it stands for; a lone surrogate reads as U+FFFD, anything else stays as written.
 * Not a JSON parser: it is how the redactor sees text that may hold serialised strings, so a
 * secret after `\n` starts a line instead of being glued to the letter `n`.
 */
export function decodeJsonEscapes(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(ESCAPE, (_match, hex: string | undefined, simple: string | undefined) => {
    if (hex === undefined) return SIMPLE[simple ?? ''] ?? '';
    const unit = Number.parseInt(hex, 16);
    // A surrogate decoded alone could pair with its neighbour into a character nobody wrote.
    return unit >= 0xd800 && unit <= 0xdfff ? '\ufffd' : String.fromCharCode(unit);
  });
}
