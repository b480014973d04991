import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldSegment, isOnReadFloor, isOnWriteFloor } from './floor.js';

const CONTEXT = {
  stateDir: '/home/u/.toolhost/state',
  spillDir: '/home/u/.toolhost/state/spill/run-1',
  configFile: '/w/app/toolhost.config.json',
};

describe('the read floor', () => {
  it.each([
    ['/w/app/.env', true],
    ['/w/app/config/.env.production', true],
    ['/w/app/.aws/credentials', true],
    ['/w/app/.gnupg/pubring.kbx', true],
    ['/w/app/.docker/config.json', true],
    ['/w/app/.git/config', true],
    ['/home/u/.config/git/credentials', true],
    ['/w/app/deploy/id_ed25519', true],
    ['/w/app/.npmrc', true],
    ['/home/u/.toolhost/state/media/abc.bin', true],
    ['/home/u/.toolhost/state/spill/other-run/1.txt', true],
    ['/proc/self/environ', true],
    ['/home/u/.toolhost/state/spill/run-1/000001.txt', false],
    ['/w/app/deploy/id_ed25519.pub', false],
    ['/w/app/.git/HEAD', false],
    ['/w/app/docs/env.md', false],
    ['/w/app/.environment/x', false],
    ['/w/app/docker/config.json', false],
  ])('%s → %s', (target, floored) => {
    expect(isOnReadFloor(target, CONTEXT)).toBe(floored);
  });
});

describe('the write floor', () => {
  it.each([
    ['/w/app/.git/hooks/pre-commit', true],
    ['/w/app/.bashrc', true],
    ['/home/u/.config/fish/config.fish', true],
    ['/w/app/.gitconfig', true],
    ['/w/app/toolhost.config.json', true],
    ['/w/app/TOOLHOST.CONFIG.JSON', true],
    ['/home/u/.toolhost/state/spill/run-1/000001.txt', true],
    ['/w/app/.env', true],
    ['/w/app/.npmrc', true],
    ['/w/app/.yarnrc.yml', true],
    ['/w/app/.pnpmfile.cjs', true],
    ['/w/app/src/toolhost.config.json', false],
    ['/w/app/.github/workflows/ci.yml', false],
    ['/w/app/docs/bashrc-example.txt', false],
  ])('%s → %s', (target, floored) => {
    expect(isOnWriteFloor(target, CONTEXT)).toBe(floored);
  });
});

describe('foldSegment', () => {
  it('folds every aliasing spelling of a floor name onto it', () => {
    const spelling = fc.record({
      name: fc.constantFrom('.env', '.ssh', '.git', '.npmrc', 'id_rsa'),
      upper: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
      trailing: fc.stringMatching(/^[. ]{0,3}$/),
      stream: fc.constantFrom('', ':', '::$DATA', ':zone.identifier'),
    });

    fc.assert(
      fc.property(spelling, ({ name, upper, trailing, stream }) => {
        const cased = [...name]
          .map((char, index) => (upper[index] ? char.toUpperCase() : char))
          .join('');

        expect(foldSegment(`${cased}${trailing}${stream}`)).toBe(name);
      }),
    );
  });

  it.each([
    ['fullwidth letters', '.\uff45\uff4e\uff56', '.env'],
    ['a zero-width non-joiner', '.g\u200cit', '.git'],
    ['the NTFS short name', 'GIT~1', '.git'],
    ['a Cyrillic look-alike stays distinct', '.\u0435nv', '.\u0435nv'],
  ])('%s', (_label, segment, folded) => {
    expect(foldSegment(segment)).toBe(folded);
  });
});
