import { describe, expect, it } from 'vitest';
import { GitignoreStack } from './gitignore-stack.js';

describe('GitignoreStack', () => {
  const root = GitignoreStack.empty.push('*.log\nbuild/\n!keep.log\n# a comment\n', '');

  it.each([
    ['a matching file', 'app.log', true],
    ['a negated file', 'keep.log', false],
    ['a matching directory', 'build/', true],
    ['a file named like the directory rule', 'build', false],
    ['a file at depth', 'src/deep/app.log', true],
    ['an unmatched file', 'src/main.ts', false],
  ])('at the top, decides %s', (_case, relative, ignored) => {
    expect(root.ignores(relative)).toBe(ignored);
  });

  it('lets a deeper file re-include what a shallower one excluded', () => {
    const nested = root.push('!important.log\n', 'sub/');

    expect(nested.ignores('sub/important.log')).toBe(false);
    expect(nested.ignores('sub/other.log')).toBe(true);
    expect(nested.ignores('important.log')).toBe(true);
  });

  it('applies a deeper file only below its directory, relative to it', () => {
    const nested = root.push('/only-here.txt\n', 'sub/');

    expect(nested.ignores('sub/only-here.txt')).toBe(true);
    expect(nested.ignores('sub/deeper/only-here.txt')).toBe(false);
    expect(nested.ignores('only-here.txt')).toBe(false);
  });

  it('compares case-sensitively, as git on Linux does', () => {
    expect(root.ignores('APP.LOG')).toBe(false);
  });

  it('leaves the stack unchanged for a file with no rules', () => {
    expect(root.push('# only a comment\n\n', 'sub/')).toBe(root);
  });

  it('answers the same after its cache is rebuilt', () => {
    const answers = Array.from({ length: 10_000 }, (_unused, index) =>
      root.ignores(`d${index}/f.${index % 2 === 0 ? 'log' : 'ts'}`),
    );

    expect(answers.filter(Boolean)).toHaveLength(5000);
    expect(root.ignores('keep.log')).toBe(false);
  });
});
