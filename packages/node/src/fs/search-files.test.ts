import { readdirSync, readlinkSync, renameSync } from 'node:fs';
import { link, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileSearchResult, FsSearchRequest } from '@toolhost/core/host';
import type { Jail } from './jail.js';
import { DEFAULT_SEARCH_LIMITS, createSearchFiles } from './search-files.js';
import type { SearchLimits } from './search-files.js';
import { MAX_MATCH_LINE_CHARS } from './search-lines.js';
import { searchReaders, setSearchReader } from './search-reader.js';
import { createSandbox, createSandboxJail } from './test-support/sandbox.js';
import type { Sandbox } from './test-support/sandbox.js';

let box: Sandbox;
const NEEDLE = 'NEEDLE';

beforeAll(async () => {
  box = await createSandbox({}, async ({ root, outside }) => {
    const put = async (relative: string, content: string | Buffer) => {
      await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
      await writeFile(path.join(root, relative), content);
    };
    await put('src/a.ts', `const x = 1;\nconst y = ${NEEDLE};\n`);
    await put('src/b.js', `${NEEDLE} first\nplain\n  ${NEEDLE} again ${NEEDLE}\n`);
    await put('src/deep/c.ts', `// needle in lower case\n`);
    await put('crlf.txt', `one\r\ntwo ${NEEDLE}\r\nthree\r\n`);
    await put('context.txt', ['l1', 'l2', 'l3', `l4 ${NEEDLE}`, 'l5', 'l6', 'l7'].join('\n'));
    // Ignore rules: the root's, a nested one with a negation, and the repository's exclude.
    await put('.gitignore', '*.log\nbuild/\n!keep.log\n');
    await put('app.log', NEEDLE);
    await put('keep.log', NEEDLE);
    await put('build/out.js', NEEDLE);
    await put('nested/.gitignore', 'private.txt\n!important.log\n');
    await put('nested/private.txt', NEEDLE);
    await put('nested/public.txt', NEEDLE);
    await put('nested/important.log', NEEDLE);
    await put('nested/other.log', NEEDLE);
    await put('.git/info/exclude', 'excluded.txt\n');
    await put('.git/HEAD', `ref: ${NEEDLE}\n`);
    await put('.git/objects/ab/cdef', NEEDLE);
    await put('excluded.txt', NEEDLE);
    await put('node_modules/pkg/index.js', NEEDLE);
    // Binary, floor and oversized files that hold the needle all the same.
    await put('image.bin', Buffer.concat([Buffer.from([0x89, 0x00, 0x01]), Buffer.from(NEEDLE)]));
    await put('.env', `TOKEN=${NEEDLE}\n`);
    await put('config/.env.local', `TOKEN=${NEEDLE}\n`);
    await put('.ssh/id_ed25519', NEEDLE);
    await put('huge.txt', `${'x'.repeat(DEFAULT_SEARCH_LIMITS.maxFileBytes)}\n${NEEDLE}\n`);
    await put('minified.js', `${'a'.repeat(50_000)}${NEEDLE}${'b'.repeat(50_000)}`);
    await put('redos/a.txt', `${'a'.repeat(50_000)}!\n`);
    await put('redos/x.txt', `${'x'.repeat(50_000)}\n`);
    // Ways out of the root: a symlinked file, a symlinked directory, a hard link.
    await writeFile(path.join(outside, 'secret.txt'), `OUTSIDE ${NEEDLE}\n`);
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'link-file.txt'));
    await symlink(outside, path.join(root, 'link-dir'));
    await symlink(path.join(root, '.env'), path.join(root, 'env-alias.txt'));
    await link(path.join(outside, 'secret.txt'), path.join(root, 'hard-link.txt'));
  });
});
afterAll(() => box.close());

async function search(request: Partial<FsSearchRequest>): Promise<FileSearchResult> {
  return await box.fs.searchFiles({ pattern: NEEDLE, ...request });
}

function pathsOf(result: FileSearchResult): string[] {
  return [...new Set(result.matches.map((match) => match.path))];
}

// Every search runs through both readers: the fs-at addon's openat batches (where it is built)
// and Node's fs. They must give the same results and refuse the same things.
describe.each(await searchReaders())('with the %s reader', (reader) => {
  beforeAll(() => setSearchReader(reader));
  afterAll(() => setSearchReader('native'));

  describe('search_files', () => {
    it('finds a literal with its path, line and column, one entry per matching line', async () => {
      const result = await search({ path: 'src' });

      expect(result.matches).toEqual([
        { path: 'src/a.ts', line: 2, column: 11, text: `const y = ${NEEDLE};` },
        { path: 'src/b.js', line: 1, column: 1, text: `${NEEDLE} first` },
        { path: 'src/b.js', line: 3, column: 3, text: `  ${NEEDLE} again ${NEEDLE}` },
      ]);
      expect(result.truncated).toBe(false);
    });

    it('honours .gitignore, nested ones with their negations, and .git/info/exclude', async () => {
      const result = await search({ maxResults: 1000 });

      expect(pathsOf(result)).toEqual(
        expect.arrayContaining(['keep.log', 'nested/public.txt', 'nested/important.log']),
      );
      for (const ignored of [
        'app.log',
        'build/out.js',
        'nested/private.txt',
        'nested/other.log',
        'excluded.txt',
      ])
        expect(pathsOf(result)).not.toContain(ignored);
    });

    it("applies the ancestors' rules when searching a subdirectory", async () => {
      const result = await search({ path: 'nested' });

      expect(pathsOf(result).sort()).toEqual(['nested/important.log', 'nested/public.txt']);
    });

    it('searches an ignored directory when the path names it', async () => {
      const [build, modules] = await Promise.all([
        search({ path: 'build' }),
        search({ path: 'node_modules' }),
      ]);

      expect(pathsOf(build)).toEqual(['build/out.js']);
      expect(pathsOf(modules)).toEqual(['node_modules/pkg/index.js']);
    });

    it.each([
      ['a binary file', 'image.bin'],
      ['a floor file', '.env'],
      ['a nested floor file', 'config/.env.local'],
      ['a file in a floor directory', '.ssh/id_ed25519'],
      ['a symlink to a floor file', 'env-alias.txt'],
      ['a file in .git', '.git/HEAD'],
      ['a file deep in .git', '.git/objects/ab/cdef'],
      ['a file in node_modules', 'node_modules/pkg/index.js'],
      ['a file over the size cap', 'huge.txt'],
      ['a symlink to a file outside', 'link-file.txt'],
      ['a hard link to a file outside', 'hard-link.txt'],
      ['a file through a symlinked directory', 'link-dir/secret.txt'],
    ])('never matches %s', async (_case, never) => {
      const result = await search({ maxResults: 1000 });

      expect(pathsOf(result)).toContain('src/a.ts');
      expect(pathsOf(result)).not.toContain(never);
      expect(result.matches.some((match) => match.text.includes('OUTSIDE'))).toBe(false);
    });

    it('counts what it skipped', async () => {
      const result = await search({ maxResults: 1000 });

      expect(result.skipped).toMatchObject({ binary: 1, tooLarge: 1 });
      // app.log, build/, nested/private.txt, nested/other.log, excluded.txt, node_modules/.
      expect(result.skipped?.ignored).toBe(6);
    });

    it('refuses to search .git even when named', async () => {
      await expect(search({ path: '.git' })).rejects.toMatchObject({ reason: 'git_directory' });
    });

    it.each([
      ['parent traversal', '../outside'],
      ['an absolute path outside', '/etc'],
      ['a symlinked directory out of the root', 'link-dir'],
      ['a floor file named directly', '.env'],
    ])('denies %s', async (_case, requested) => {
      await expect(search({ path: requested })).rejects.toMatchObject({ code: 'tool_denied' });
    });

    it('searches one named file', async () => {
      const result = await search({ path: 'src/a.ts' });

      expect(result.matches).toEqual([
        { path: 'src/a.ts', line: 2, column: 11, text: `const y = ${NEEDLE};` },
      ]);
    });

    it('filters by glob, a bare one matching basenames at any depth', async () => {
      const [bare, nested] = await Promise.all([
        search({ glob: '*.ts', pattern: 'const' }),
        search({ glob: 'src/**/*.js' }),
      ]);

      expect(pathsOf(bare)).toEqual(['src/a.ts']);
      expect(pathsOf(nested)).toEqual(['src/b.js']);
    });

    it('is case-sensitive by default and folds case when asked', async () => {
      const [exact, folded, foldedRegex] = await Promise.all([
        search({ path: 'src', pattern: 'needle' }),
        search({ path: 'src', pattern: 'needle', caseSensitive: false }),
        search({ path: 'src', pattern: 'need+le', regex: true, caseSensitive: false }),
      ]);

      expect(pathsOf(exact)).toEqual(['src/deep/c.ts']);
      expect(pathsOf(folded)).toEqual(['src/b.js', 'src/a.ts', 'src/deep/c.ts'].sort());
      expect(pathsOf(foldedRegex)).toEqual(pathsOf(folded));
    });

    it('takes a literal literally and a regex as RE2, ^ and $ at line ends', async () => {
      const [literal, anchored] = await Promise.all([
        search({ path: 'src', pattern: 'y = N' }),
        search({ path: 'src', pattern: `^\\s*${NEEDLE}\\b`, regex: true }),
      ]);
      const dotted = await search({ path: 'src', pattern: 'y.=' });

      expect(pathsOf(literal)).toEqual(['src/a.ts']);
      expect(dotted.matches).toEqual([]);
      expect(anchored.matches.map((match) => [match.path, match.line])).toEqual([
        ['src/b.js', 1],
        ['src/b.js', 3],
      ]);
    });

    it('reports a regex match per line, never one that runs across a line break', async () => {
      const result = await search({ path: 'context.txt', pattern: 'l3\\sl4', regex: true });

      expect(result.matches).toEqual([]);
    });

    it('refuses a pattern RE2 cannot take as a correctable args error', async () => {
      for (const pattern of ['(a)\\1', '(?=a)b', '(unclosed']) {
        await expect(search({ pattern, regex: true })).rejects.toMatchObject({
          code: 'tool_args_invalid',
          fields: ['pattern'],
        });
      }
    });

    it.each([
      ['(a+)+$', 'redos/a.txt'],
      ['(x+x+)+y', 'redos/x.txt'],
      ['(a|aa)*!?$x', 'redos/a.txt'],
    ])('answers the ReDoS pattern %s on a long line quickly', async (pattern, file) => {
      const started = performance.now();

      const result = await search({ path: file, pattern, regex: true });

      // Generous for a shared machine: a backtracking engine takes minutes to years here.
      expect(performance.now() - started).toBeLessThan(5000);
      expect(result.filesSearched).toBe(1);
    });

    it('drops the CR of a CRLF line', async () => {
      const result = await search({ path: 'crlf.txt' });

      expect(result.matches).toEqual([
        { path: 'crlf.txt', line: 2, column: 5, text: `two ${NEEDLE}` },
      ]);
    });

    it('adds context lines before and after when asked', async () => {
      const result = await search({ path: 'context.txt', contextLines: 2 });

      expect(result.matches).toEqual([
        {
          path: 'context.txt',
          line: 4,
          column: 4,
          text: `l4 ${NEEDLE}`,
          before: ['l2', 'l3'],
          after: ['l5', 'l6'],
        },
      ]);
    });

    it('cuts a minified line around the match', async () => {
      const result = await search({ path: 'minified.js' });

      const [match] = result.matches;
      expect(match?.column).toBe(50_001);
      expect(match?.text.length).toBeLessThanOrEqual(MAX_MATCH_LINE_CHARS + 2);
      expect(match?.text).toContain(NEEDLE);
      expect(match?.text.startsWith('…')).toBe(true);
      expect(match?.text.endsWith('…')).toBe(true);
    });

    it('stops at maxResults and says it cut, but not when exactly that many exist', async () => {
      const [cut, exact] = await Promise.all([
        search({ path: 'src', maxResults: 2 }),
        search({ path: 'src', maxResults: 3 }),
      ]);

      expect(cut.matches).toHaveLength(2);
      expect(cut).toMatchObject({ truncated: true, stoppedBy: 'max_results' });
      expect(exact.matches).toHaveLength(3);
      expect(exact.truncated).toBe(false);
      expect(exact.stoppedBy).toBeUndefined();
    });

    it('cancels when the signal is already aborted', async () => {
      const controller = new AbortController();
      controller.abort();

      await expect(
        box.fs.searchFiles({ pattern: NEEDLE }, controller.signal),
      ).rejects.toMatchObject({
        code: 'cancelled',
      });
    });
  });

  describe('search_files bounds', () => {
    let jail: Jail;
    beforeAll(async () => {
      jail = await createSandboxJail(box);
    });
    afterAll(() => jail.close());

    const withLimits = (limits: Partial<SearchLimits>) =>
      createSearchFiles(jail, { ...DEFAULT_SEARCH_LIMITS, ...limits });

    it.each([
      ['file_limit', { maxFiles: 2 }],
      ['byte_limit', { maxBytes: 10 }],
      ['time_limit', { timeMs: 0 }],
    ] as const)('stops cut at its %s', async (stop, limits) => {
      const result = await withLimits(limits)({ pattern: NEEDLE });

      expect(result).toMatchObject({ truncated: true, stoppedBy: stop });
      expect(result.filesSearched).toBeLessThanOrEqual(2);
    });

    it('skips a file over the size cap it was given', async () => {
      const result = await withLimits({ maxFileBytes: 4 })({ pattern: NEEDLE, path: 'src' });

      expect(result.matches).toEqual([]);
      expect(result.skipped?.tooLarge).toBe(3);
    });
  });

  describe('search_files when a directory leaves the root mid-search', () => {
    let moving: Sandbox;
    beforeAll(async () => {
      moving = await createSandbox({}, async ({ root }) => {
        await mkdir(path.join(root, 'd'));
        await Promise.all(
          Array.from({ length: 6000 }, (_unused, file) =>
            writeFile(path.join(root, 'd', `f${file}.txt`), `${NEEDLE}\n`),
          ),
        );
      });
    }, 60_000);
    afterAll(() => moving.close());

    it('fails closed rather than return what it read there', async () => {
      const directory = path.join(moving.root, 'd');
      const searching = moving.fs.searchFiles({ pattern: 'absent' });
      // Moves `d` out once the search has held it open for a few turns (verified, being listed or
      // read; its readdir or a yield lets this run). Seen only once, it may not be verified yet.
      let moved = false;
      let seen = 0;
      const mover = async () => {
        while (!moved) {
          const held = readdirSync('/proc/self/fd').some((fd) => {
            try {
              return readlinkSync(`/proc/self/fd/${fd}`) === directory;
            } catch {
              return false;
            }
          });
          if (held) seen += 1;
          if (seen >= 3) {
            renameSync(directory, path.join(moving.outside, 'd'));
            moved = true;
          } else await new Promise((resolve) => setImmediate(resolve));
        }
      };
      const moverDone = mover();

      await expect(searching).rejects.toMatchObject({ code: 'tool_denied' });
      await moverDone;
      expect(moved).toBe(true);
    }, 60_000);
  });

  describe('search_files over a large tree', () => {
    let large: Sandbox;
    const DIRECTORIES = 200;
    const FILES = 100;
    beforeAll(async () => {
      large = await createSandbox({}, async ({ root }) => {
        const body = `${'filler line without the word\n'.repeat(30)}`;
        for (let directory = 0; directory < DIRECTORIES; directory += 1) {
          const parent = path.join(root, `d${directory}`, 'inner');
          await mkdir(parent, { recursive: true });
          await Promise.all(
            Array.from({ length: FILES }, (_unused, file) =>
              writeFile(
                path.join(parent, `f${file}.txt`),
                file === 7 ? `${body}${NEEDLE}\n` : body,
              ),
            ),
          );
        }
      });
    }, 120_000);
    afterAll(() => large.close());

    it('holds a few descriptors and flat memory over 20 000 files', async () => {
      const baseline = (await readdir('/proc/self/fd')).length;
      const rssBefore = process.memoryUsage().rss;
      let peakDescriptors = 0;
      let peakRss = 0;
      let sampling = true;
      const sample = async () => {
        while (sampling) {
          peakDescriptors = Math.max(peakDescriptors, (await readdir('/proc/self/fd')).length);
          peakRss = Math.max(peakRss, process.memoryUsage().rss);
          await new Promise((resolve) => setImmediate(resolve));
        }
      };
      const sampler = sample();

      const result = await large.fs.searchFiles({ pattern: NEEDLE, maxResults: 1000 });
      sampling = false;
      await sampler;

      expect(result.filesSearched).toBe(DIRECTORIES * FILES);
      expect(result.matches).toHaveLength(DIRECTORIES);
      // The start, two levels of open chain, one file, the readdir of /proc: a handful.
      expect(peakDescriptors - baseline).toBeLessThanOrEqual(8);
      expect(peakRss - rssBefore).toBeLessThan(96 * 1024 * 1024);
    }, 60_000);

    it('stops with the cancel error when aborted mid-search', async () => {
      const controller = new AbortController();
      const searching = large.fs.searchFiles({ pattern: 'absent' }, controller.signal);
      setTimeout(() => controller.abort(), 20);

      await expect(searching).rejects.toMatchObject({ code: 'cancelled' });
    }, 60_000);
  });

  describe('search_files at its edges', () => {
    let edges: Sandbox;
    const DIRECTORIES = 2000;
    beforeAll(async () => {
      edges = await createSandbox({}, async ({ root }) => {
        await writeFile(path.join(root, 'exact.txt'), `${'x'.repeat(56)}${NEEDLE}\n`);
        await writeFile(path.join(root, 'over.txt'), `${'x'.repeat(57)}${NEEDLE}\n`);
        await writeFile(path.join(root, 'accents.txt'), 'une ÉCOLE\nune école\nune ecole\n');
        await mkdir(path.join(root, 'empty'));
        for (let directory = 0; directory < DIRECTORIES; directory += 1)
          await mkdir(path.join(root, 'empty', `d${directory}`));
      });
    }, 60_000);
    afterAll(() => edges.close());

    it('reads a file of exactly the size cap to its last byte, and skips one byte more', async () => {
      const jail = await createSandboxJail(edges);
      try {
        const search = createSearchFiles(jail, { ...DEFAULT_SEARCH_LIMITS, maxFileBytes: 63 });
        const result = await search({ pattern: NEEDLE });

        expect(pathsOf(result)).toEqual(['exact.txt']);
        expect(result.matches[0]).toMatchObject({ line: 1, column: 57 });
        expect(result.skipped?.tooLarge).toBe(1);
      } finally {
        await jail.close();
      }
    });

    it('folds the case of a non-ASCII literal when asked, and only then', async () => {
      const [exact, folded] = await Promise.all([
        edges.fs.searchFiles({ pattern: 'école', path: 'accents.txt' }),
        edges.fs.searchFiles({ pattern: 'école', path: 'accents.txt', caseSensitive: false }),
      ]);

      expect(exact.matches.map((match) => match.line)).toEqual([2]);
      expect(folded.matches.map((match) => match.line)).toEqual([1, 2]);
    });

    it('gives the event loop turns while it walks a tree of directories with no file', async () => {
      let last = performance.now();
      let longestGap = 0;
      let searching = true;
      const watch = async () => {
        while (searching) {
          await new Promise((resolve) => setImmediate(resolve));
          const now = performance.now();
          longestGap = Math.max(longestGap, now - last);
          last = now;
        }
      };
      const watcher = watch();
      const started = performance.now();
      await edges.fs.searchFiles({ pattern: NEEDLE, path: 'empty' });
      const elapsed = performance.now() - started;
      searching = false;
      await watcher;

      // The walk is synchronous between turns (every ten milliseconds): never one long stretch.
      expect(longestGap).toBeLessThan(elapsed / 2);
    }, 60_000);
  });
});

// The addon reads a batch of files a call (64 files, 256 KiB): runs that cross a batch's file
// count and byte budget, cut by each bound mid-batch, must give what Node's path gives.
describe.runIf((await searchReaders()).includes('native'))(
  'search_files: the two readers agree',
  () => {
    let batches: Sandbox;
    beforeAll(async () => {
      batches = await createSandbox({}, async ({ root, outside }) => {
        await mkdir(path.join(root, 'many'));
        await writeFile(path.join(outside, 'secret.txt'), `OUTSIDE ${NEEDLE}\n`);
        for (let file = 0; file < 300; file += 1) {
          const name = path.join(root, 'many', `f${String(file).padStart(3, '0')}.txt`);
          // Every seventh file is large, so batches stop at their byte budget too.
          const filler = 'x'.repeat(file % 7 === 0 ? 90_000 : 40);
          if (file % 50 === 10) await symlink(path.join(outside, 'secret.txt'), name);
          else if (file % 50 === 20) await link(path.join(outside, 'secret.txt'), name);
          else if (file % 50 === 30) await writeFile(name, Buffer.from([0, 1, 2]));
          else await writeFile(name, file % 3 === 0 ? `${filler}\n${NEEDLE} ${file}\n` : filler);
        }
      });
    });
    afterAll(async () => {
      setSearchReader('native');
      await batches.close();
    });

    const both = async (request: Partial<FsSearchRequest>) => {
      const results: FileSearchResult[] = [];
      for (const reader of ['native', 'node'] as const) {
        setSearchReader(reader);
        results.push(
          await batches.fs.searchFiles({ pattern: NEEDLE, maxResults: 1000, ...request }),
        );
      }
      return results;
    };

    it.each([
      ['the whole run', {}],
      ['a glob', { glob: 'f1*.txt' }],
      ['a result bound', { maxResults: 37 }],
      ['a start below the root', { path: 'many' }],
    ] as const)('over %s', async (_what, request) => {
      const [native, node] = await both(request);

      expect(native).toEqual(node);
      expect(node?.matches.length).toBeGreaterThan(0);
      expect(JSON.stringify(native)).not.toContain('OUTSIDE');
    });

    it.each([
      ['file_limit', { maxFiles: 70 }],
      ['byte_limit', { maxBytes: 300_000 }],
      ['max size', { maxFileBytes: 1000 }],
    ] as const)('cut by its %s mid-batch', async (_stop, limits) => {
      const jail = await createSandboxJail(batches);
      try {
        const results: FileSearchResult[] = [];
        for (const reader of ['native', 'node'] as const) {
          setSearchReader(reader);
          const search = createSearchFiles(jail, { ...DEFAULT_SEARCH_LIMITS, ...limits });
          results.push(await search({ pattern: NEEDLE, maxResults: 1000 }));
        }

        expect(results[0]).toEqual(results[1]);
        expect(results[0]?.filesSearched).toBeGreaterThan(0);
      } finally {
        await jail.close();
      }
    });
  },
);
