import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { compileGlob } from './compile-glob.js';
import { createSandbox } from './test-support/sandbox.js';

const GLOBS = [
  '*',
  '*.ts',
  '**',
  '**/*.ts',
  'src/**',
  'src/**/*.test.ts',
  'a/**/b',
  '**/node_modules/**',
  'src/*/index.ts',
  'a?c',
  '[ab]*',
  '[^a]*',
  'file[0-9].txt',
  '*.{ts,js}',
  '{src,lib}/**/*.md',
  'x/{a,b/c}/y',
  'v{1..3}.txt',
  '{a,b{c,d}}.txt',
  '.*',
  '.env*',
  '*.@(ts|js)',
  'a.+(x|y)',
  '*.?(m)js',
  'lit\\*.txt',
  './src/*.ts',
  '*a*b*',
  '**/*.test.*',
  'a+b(c).txt',
  '$HOME.md',
];

const PATHS = [
  'a',
  'abc',
  'a.ts',
  '.hidden.ts',
  'src',
  'src/a.ts',
  'src/x/index.ts',
  'src/x/y/index.ts',
  'src/a.test.ts',
  'src/x/a.test.ts',
  'a/b',
  'a/x/b',
  'a/x/y/b',
  'node_modules/p/index.js',
  'x/node_modules/p',
  'bc',
  'file1.txt',
  'filex.txt',
  'a.js',
  'a.mjs',
  'lib/doc/r.md',
  'x/a/y',
  'x/b/c/y',
  'v2.txt',
  'v4.txt',
  'a.txt',
  'bc.txt',
  'bd.txt',
  '.env',
  '.env.local',
  'a.x',
  'a.xy',
  'lit*.txt',
  'litx.txt',
  'xaxbx',
  'a+b(c).txt',
  '$HOME.md',
  'src/deep/a.test.js',
];

describe('compileGlob', () => {
  it.each(GLOBS)('matches like picomatch (dot: true): %s', async (glob) => {
    const ours = await compileGlob('list_directory', 'glob', glob);
    const oracle = picomatch(glob, { dot: true });
    for (const candidate of PATHS) {
      expect({ glob, candidate, matched: ours(candidate) }).toEqual({
        glob,
        candidate,
        matched: oracle(candidate),
      });
    }
  });

  // picomatch 4 reads `[!a]` as the class of `!` and `a`; a glob's `[!…]` is a negation (POSIX,
  // bash, git), as `[^…]` is.
  it('negates a class with ! as with ^', async () => {
    const ours = await compileGlob('list_directory', 'glob', '[!a]*');
    expect(['a', 'ab', 'b', 'ba', '.a', '!x', 'x/y'].filter(ours)).toEqual(['b', 'ba', '.a', '!x']);
  });

  it.each(['*.ts', 'a?c', '*.{ts,js}', '*a*b*'])(
    'matches a glob without / at any depth with basename: %s',
    async (glob) => {
      const ours = await compileGlob('search_files', 'glob', glob, { basename: true });
      const oracle = picomatch(glob, { dot: true, basename: true });
      for (const candidate of PATHS) expect(ours(candidate)).toBe(oracle(candidate));
    },
  );

  // Each of these against a name a model can create blocked a backtracking engine for seconds
  // to minutes (the first: 21 characters against 38, 12–20 s).
  it.each([
    ['*a*a*a*a*a*a*a*a*a*b', 'a'.repeat(38)],
    ['*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b', 'a'.repeat(200)],
    ['**/*a*a*a*a*a*a*a*a*a*a*b/**', `${'a'.repeat(60)}/${'a'.repeat(60)}`],
    ['+(a|aa)+(a|aa)+(a|aa)b', 'a'.repeat(60)],
    ['*(*(a))b', 'a'.repeat(100)],
    ['{a,b}*{a,b}*{a,b}*{a,b}*{a,b}*c', 'ab'.repeat(50)],
  ])('answers the pathological %s in milliseconds', async (glob, name) => {
    const matcher = await compileGlob('list_directory', 'glob', glob);
    const started = performance.now();
    expect(matcher(name)).toBe(false);
    // Far above the microseconds it takes; far below the seconds a backtracking engine took.
    expect(performance.now() - started).toBeLessThan(250);
  });

  it.each([
    ['!(a).txt', 'a negated extglob needs lookaround'],
    ['{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}', 'the braces expand past the cap'],
    ['{1..100000}', 'a range past the cap'],
  ])('refuses %s as unsupported_glob (%s)', async (glob) => {
    await expect(compileGlob('list_directory', 'glob', glob)).rejects.toMatchObject({
      name: 'ToolArgsInvalidError',
      issues: [{ field: 'glob', problem: 'unsupported_glob' }],
    });
  });

  it('keeps every fs tool that takes a glob responsive to a hostile one', async () => {
    const name = 'a'.repeat(38);
    const box = await createSandbox({}, async ({ root }) => {
      await writeFile(path.join(root, name), 'aaaa\n');
    });
    try {
      const hostile = '*a*a*a*a*a*a*a*a*a*a*b';
      const started = performance.now();
      const listed = await box.fs.listDirectory({ path: '.', recursive: true, glob: hostile });
      const searched = await box.fs.searchFiles({ path: '.', pattern: 'a', glob: hostile });
      const read = await box.fs.readFile({ path: hostile, glob: true });
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(listed.entries).toEqual([]);
      expect(searched).toMatchObject({ matches: [] });
      expect(read.matches).toMatchObject({ count: 0 });
      await expect(box.fs.listDirectory({ path: '.', glob: '!(a)' })).rejects.toMatchObject({
        name: 'ToolArgsInvalidError',
      });
    } finally {
      await box.close();
    }
  });
});
