import { describe, expect, it } from 'vitest';
import { escapeForPrompt } from './escape-for-prompt.js';

describe('escapeForPrompt', () => {
  it.each([
    ['a right-to-left override (Trojan Source)', 'invoice\u202Etxt.exe', 'invoice\\u202Etxt.exe'],
    ['a left-to-right isolate and its pop', 'a\u2066b\u2069c', 'a\\u2066b\\u2069c'],
    ['a right-to-left mark', 'rm\u200F -rf', 'rm\\u200F -rf'],
    ['an Arabic letter mark', 'x\u061Cy', 'x\\u061Cy'],
    ['a zero-width space', '.git\u200B/hooks', '.git\\u200B/hooks'],
    ['a zero-width joiner', 'a\u200Db', 'a\\u200Db'],
    ['a byte-order mark', '\uFEFFnpm test', '\\uFEFFnpm test'],
    ['a soft hyphen', 'cu\u00ADrl', 'cu\\u00ADrl'],
    ['a word joiner', 'a\u2060b', 'a\\u2060b'],
    ['a variation selector', 'a\uFE0Fb', 'a\\uFE0Fb'],
    ['a Hangul filler', 'a\u3164b', 'a\\u3164b'],
    ['a tag character (invisible ASCII)', 'ls\u{E0072}\u{E006D}', 'ls\\u{E0072}\\u{E006D}'],
    ['a line separator', 'ls\u2028rm -rf ~', 'ls\\u2028rm -rf ~'],
    ['a paragraph separator', 'ls\u2029rm', 'ls\\u2029rm'],
    ['a no-break space passing for a space', 'rm\u00A0-rf', 'rm\\u00A0-rf'],
    ['an ideographic space', 'a\u3000b', 'a\\u3000b'],
    ['a lone surrogate', 'a\uD800b', 'a\\uD800b'],
    ['a private-use code point', 'a\uE000b', 'a\\uE000b'],
  ])('shows %s escaped', (_case, input, expected) => {
    expect(escapeForPrompt(input)).toBe(expected);
  });

  it('keeps control characters in caret notation on one line', () => {
    expect(escapeForPrompt('a\x1b[2K\r\n\tb')).toBe('a^[[2K^M^J^Ib');
  });

  it.each([
    ['plain ASCII with spaces', 'npm test -- --run src/a.ts'],
    ['accented and CJK names', 'docs/résumé/日本語.md'],
    ['a decomposed accent (macOS file names)', 'cafe\u0301.txt'],
    ['an emoji', 'notes/🚀.md'],
    ['Arabic and Hebrew text without controls', 'مرحبا/שלום.txt'],
    ['a literal backslash-u', 'echo \\u202E'],
  ])('leaves %s as it is', (_case, input) => {
    expect(escapeForPrompt(input)).toBe(input);
  });
});
