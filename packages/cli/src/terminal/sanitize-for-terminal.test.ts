import { describe, expect, it } from 'vitest';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';

describe('sanitizeForTerminal', () => {
  it.each([
    ['an ANSI colour sequence', '\x1b[31mred', '^[[31mred'],
    ['a carriage return that hides a line', 'safe\rrm -rf', 'safe^Mrm -rf'],
    ['a title-setting OSC', '\x1b]0;pwned\x07', '^[]0;pwned^G'],
    ['a C1 CSI', '\x9b2J', '\uFFFD2J'],
    ['DEL', 'a\x7fb', 'a^?b'],
  ])('neutralises %s', (_case, input, expected) => {
    expect(sanitizeForTerminal(input)).toBe(expected);
  });

  it('keeps newlines, tabs and ordinary Unicode', () => {
    expect(sanitizeForTerminal('a\tb\nc — ü 😀')).toBe('a\tb\nc — ü 😀');
  });
});
