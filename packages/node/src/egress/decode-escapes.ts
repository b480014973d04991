/**
 * One layer of the escapes a reader undoes without thinking: JSON / JS string escapes
 * (`\/`, `\uXXXX`, `\xXX`), percent-encoding (`%XX`, either case) and HTML character references
 * (`&#65;`, `&#x41;`, `&sol;`). Every form anywhere is decoded, whatever the body's type: a
 * model reads an escape in prose as readily as in a JSON string, so over-decoding only ever
 * finds more. One linear pass, no regex. With `map`, `map[i]` is the source index that decoded
 * character `i` came from (`map[length]` is the source length); returns `undefined` when the
 * text holds no escape, so the caller keeps the text it has.
 */
export function decodeEscapes(text: string, map?: Int32Array): string | undefined {
  let decodedText = '';
  let changed = false;
  let copied = 0;
  let length = 0;
  // Jumping from lead to lead with native indexOf: prose with no escape costs three scans.
  let nextBackslash = text.indexOf('\\');
  let nextPercent = text.indexOf('%');
  let nextAmpersand = text.indexOf('&');
  for (;;) {
    const index = Math.min(
      nextBackslash < 0 ? Infinity : nextBackslash,
      nextPercent < 0 ? Infinity : nextPercent,
      nextAmpersand < 0 ? Infinity : nextAmpersand,
    );
    if (index === Infinity) break;
    const lead = text.charCodeAt(index);
    const escape =
      lead === BACKSLASH
        ? jsonEscape(text, index)
        : lead === PERCENT
          ? percentEscape(text, index)
          : characterReference(text, index);
    let resume = index + 1;
    if (escape !== NONE) {
      const code = escape % CODE_SPAN;
      const decoded = code < 0x80 ? (ASCII[code] as string) : String.fromCodePoint(code);
      if (map !== undefined) {
        for (let source = copied; source < index; source += 1) map[length++] = source;
        for (let unit = 0; unit < decoded.length; unit += 1) map[length++] = index;
      }
      decodedText += text.slice(copied, index) + decoded;
      changed = true;
      resume = index + Math.floor(escape / CODE_SPAN);
      copied = resume;
    }
    if (nextBackslash >= 0 && nextBackslash < resume) nextBackslash = text.indexOf('\\', resume);
    if (nextPercent >= 0 && nextPercent < resume) nextPercent = text.indexOf('%', resume);
    if (nextAmpersand >= 0 && nextAmpersand < resume) nextAmpersand = text.indexOf('&', resume);
  }
  if (!changed) return undefined;
  if (map !== undefined) {
    for (let source = copied; source <= text.length; source += 1) map[length++] = source;
  }
  return decodedText + text.slice(copied);
}

const ASCII = Array.from({ length: 0x80 }, (_, code) => String.fromCharCode(code));

const BACKSLASH = 0x5c;
const PERCENT = 0x25;
const SEMICOLON = 0x3b;
const NONE = -1;
// An escape is packed as `length * CODE_SPAN + codePoint`: no object per escape on a 10 MiB body.
const CODE_SPAN = 0x110000;
const REPLACEMENT = 0xfffd;

const SINGLE_ESCAPES: Readonly<Record<string, number>> = {
  '"': 0x22,
  "'": 0x27,
  '\\': 0x5c,
  '/': 0x2f,
  b: 0x08,
  f: 0x0c,
  n: 0x0a,
  r: 0x0d,
  t: 0x09,
};

function jsonEscape(text: string, index: number): number {
  const next = text[index + 1];
  if (next === 'u') return hexRun(text, index + 2, 4, 6);
  if (next === 'x') return hexRun(text, index + 2, 2, 4);
  const single = next === undefined ? undefined : SINGLE_ESCAPES[next];
  return single === undefined ? NONE : 2 * CODE_SPAN + single;
}

function percentEscape(text: string, index: number): number {
  return hexRun(text, index + 1, 2, 3);
}

// Exactly `digits` hex digits at `start`; `length` is the whole escape's length.
function hexRun(text: string, start: number, digits: number, length: number): number {
  let code = 0;
  for (let offset = 0; offset < digits; offset += 1) {
    const digit = hexValue(text.charCodeAt(start + offset));
    if (digit < 0) return NONE;
    code = code * 16 + digit;
  }
  return length * CODE_SPAN + code;
}

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

// `&#65;` / `&#x41;` with any number of leading zeros and an optional `;` (as browsers
// read them), or a named reference for an ASCII character.
function characterReference(text: string, index: number): number {
  if (text[index + 1] !== '#') return namedReference(text, index);
  const hex = text[index + 2] === 'x' || text[index + 2] === 'X';
  let cursor = index + (hex ? 3 : 2);
  const first = cursor;
  let code = 0;
  for (; cursor < text.length; cursor += 1) {
    const digit = hex ? hexValue(text.charCodeAt(cursor)) : decimalValue(text.charCodeAt(cursor));
    if (digit < 0) break;
    // Past the last code point the value stays out of range (read as U+FFFD, like a browser).
    if (code < CODE_SPAN) code = code * (hex ? 16 : 10) + digit;
  }
  if (cursor === first) return NONE;
  if (text.charCodeAt(cursor) === SEMICOLON) cursor += 1;
  const point = code >= CODE_SPAN || (code >= 0xd800 && code <= 0xdfff) ? REPLACEMENT : code;
  return (cursor - index) * CODE_SPAN + point;
}

function decimalValue(code: number): number {
  return code >= 0x30 && code <= 0x39 ? code - 0x30 : -1;
}

const MAX_NAME = 24;

function namedReference(text: string, index: number): number {
  let cursor = index + 1;
  while (
    cursor < text.length &&
    cursor - index <= MAX_NAME &&
    isAlphanumeric(text.charCodeAt(cursor))
  )
    cursor += 1;
  const name = text.slice(index + 1, cursor);
  if (text.charCodeAt(cursor) === SEMICOLON) {
    const code = NAMED_REFERENCES.get(name);
    if (code !== undefined) return (cursor + 1 - index) * CODE_SPAN + code;
  }
  // The legacy names a browser still reads without their `;`.
  const legacy = LEGACY_REFERENCES.get(name);
  return legacy === undefined ? NONE : (cursor - index) * CODE_SPAN + legacy;
}

function isAlphanumeric(code: number): boolean {
  const lower = code | 0x20;
  return (lower >= 0x61 && lower <= 0x7a) || (code >= 0x30 && code <= 0x39);
}

const LEGACY_REFERENCES = new Map<string, number>([
  ['amp', 0x26],
  ['AMP', 0x26],
  ['lt', 0x3c],
  ['LT', 0x3c],
  ['gt', 0x3e],
  ['GT', 0x3e],
  ['quot', 0x22],
  ['QUOT', 0x22],
  ['nbsp', 0xa0],
]);

// The HTML named references that stand for an ASCII character (a credential is header text).
const NAMED_REFERENCES = new Map<string, number>([
  ...LEGACY_REFERENCES,
  ...(
    [
      [0x09, 'Tab'],
      [0x0a, 'NewLine'],
      [0x21, 'excl'],
      [0x23, 'num'],
      [0x24, 'dollar'],
      [0x25, 'percnt'],
      [0x27, 'apos'],
      [0x28, 'lpar'],
      [0x29, 'rpar'],
      [0x2a, 'ast'],
      [0x2a, 'midast'],
      [0x2b, 'plus'],
      [0x2c, 'comma'],
      [0x2e, 'period'],
      [0x2f, 'sol'],
      [0x3a, 'colon'],
      [0x3b, 'semi'],
      [0x3d, 'equals'],
      [0x3f, 'quest'],
      [0x40, 'commat'],
      [0x5b, 'lsqb'],
      [0x5b, 'lbrack'],
      [0x5c, 'bsol'],
      [0x5d, 'rsqb'],
      [0x5d, 'rbrack'],
      [0x5e, 'Hat'],
      [0x5f, 'lowbar'],
      [0x5f, 'UnderBar'],
      [0x60, 'grave'],
      [0x60, 'DiacriticalGrave'],
      [0x7b, 'lcub'],
      [0x7b, 'lbrace'],
      [0x7c, 'verbar'],
      [0x7c, 'vert'],
      [0x7c, 'VerticalLine'],
      [0x7d, 'rcub'],
      [0x7d, 'rbrace'],
      [0xa0, 'NonBreakingSpace'],
    ] as const
  ).map(([code, name]) => [name, code] as const),
]);
