import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchCommandGlob } from './match-command-glob.js';

describe('matchCommandGlob', () => {
  it.each<[string, string, boolean]>([
    ['ls', 'ls', true],
    ['ls', 'ls -l', false],
    ['ls *', 'ls -l', true],
    ['ls *', 'ls', false],
    ['ls *', 'ls ', true],
    ['git log *', 'git log --oneline -n 5', true],
    ['git log *', 'git push', false],
    ['*', '', true],
    ['*', 'anything at all', true],
    ['', '', true],
    ['', 'x', false],
    ['ls ?', 'ls a', true],
    ['ls ?', 'ls ab', false],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'axxbyyc', true],
    ['a*b*c', 'axxcyyb', false],
    ['*.txt', 'cat notes.txt', true],
    ['*.txt', 'cat notes.txt.sh', false],
    ['a*a', 'a', false],
    ['np? test', 'npm test', true],
    ['LS', 'ls', false],
  ])('%j against %j is %s', (glob, command, expected) => {
    expect(matchCommandGlob(glob, command)).toBe(expected);
  });

  it('agrees with an anchored regex translation', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'b', '*', '?', ' '), maxLength: 8 }),
        fc.string({ unit: fc.constantFrom('a', 'b', ' '), maxLength: 12 }),
        (glob, command) => {
          const source = [...glob]
            .map((char) => (char === '*' ? '[\\s\\S]*' : char === '?' ? '[\\s\\S]' : char))
            .join('');

          expect(matchCommandGlob(glob, command)).toBe(new RegExp(`^${source}$`).test(command));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('answers a pathological pattern without backtracking blow-up', () => {
    const glob = `${'*a'.repeat(30)}*b`;

    expect(matchCommandGlob(glob, 'a'.repeat(10_000))).toBe(false);
  });
});
