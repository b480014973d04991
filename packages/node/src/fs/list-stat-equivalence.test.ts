import { execFileSync } from 'node:child_process';
import { lutimesSync, mkdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { link, mkdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolRegistry, unwrapUntrusted } from '@toolhost/core';
import { listDirectoryTool } from '@toolhost/core/tools';
import type { ToolDispatchContext, ToolHost } from '@toolhost/core';
import type { DirectoryListing } from '@toolhost/core/host';
import { createJail } from './jail.js';
import type { Jail } from './jail.js';
import { createListDirectory } from './list-directory.js';
import { listStatSources, setListStatSource } from './list-stat-source.js';
import type { ListStatSourceKind } from './list-stat-source.js';
import { createSandbox } from './test-support/sandbox.js';
import type { Sandbox } from './test-support/sandbox.js';

const CONTEXT: ToolDispatchContext = {
  nodeId: 'test',
  grantedToolIds: new Set(['list_directory']),
  config: {},
  toolPolicy: {},
  fsScope: 'sandboxed',
  gateApproved: false,
  limits: { maxBytes: 16 * 1024 * 1024, maxLines: 1_000_000 },
};
// Fixed, sub-millisecond times: both sources must round them to the same ISO text.
const FILE_TIME = 1_700_000_000.123_4;
const DIRECTORY_TIME = 1_600_000_000.987_6;
const SECRET = 'OUTSIDE-SECRET-CONTENT';
const WIDE_FILES = 300;

/** What a dispatch gives the model and the caller: everything but its events' timings. */
async function dispatchListing(
  host: ToolHost,
  source: ListStatSourceKind,
  args: Record<string, unknown>,
): Promise<string> {
  setListStatSource(source);
  try {
    const registry = createToolRegistry({ tools: [listDirectoryTool], host });
    const outcome = await registry.dispatch({ id: 'c', name: 'list_directory', args }, CONTEXT);
    const { output, truncated } = outcome;
    return JSON.stringify({ toolResult: unwrapUntrusted(outcome.toolResult), output, truncated });
  } finally {
    setListStatSource('native');
  }
}

const runsBoth = (await listStatSources()).includes('native');

describe.runIf(runsBoth)('list_directory through the addon and through Node', () => {
  let box: Sandbox;
  let server: Server;

  beforeAll(async () => {
    box = await createSandbox({}, async ({ root, outside }) => {
      await writeFile(path.join(outside, 'secret.txt'), SECRET);
      await mkdir(path.join(outside, 'tree'));
      await writeFile(path.join(outside, 'tree', 'inside-outside.txt'), SECRET);
      await mkdir(path.join(root, 'files'));
      await writeFile(path.join(root, 'files', 'a.txt'), 'alpha');
      await writeFile(path.join(root, 'files', 'big.bin'), Buffer.alloc(5000, 7));
      await mkdir(path.join(root, 'links'));
      await symlink('../files/a.txt', path.join(root, 'links', 'to-file'));
      await symlink('../files', path.join(root, 'links', 'to-dir'));
      await symlink(path.join(outside, 'secret.txt'), path.join(root, 'links', 'out-file'));
      await symlink(path.join(outside, 'tree'), path.join(root, 'links', 'out-dir'));
      await symlink('./nowhere', path.join(root, 'links', 'dangling'));
      await mkdir(path.join(root, 'hard'));
      await link(path.join(root, 'files', 'a.txt'), path.join(root, 'hard', 'inside'));
      await link(path.join(outside, 'secret.txt'), path.join(root, 'hard', 'outside'));
      await mkdir(path.join(root, 'special'));
      execFileSync('mkfifo', [path.join(root, 'special', 'fifo')]);
      await mkdir(path.join(root, 'floored/.ssh'), { recursive: true });
      await writeFile(path.join(root, 'floored/.ssh/id_ed25519'), 'FAKE-KEY');
      await writeFile(path.join(root, 'floored/.env'), 'FAKE-SECRET');
      await writeFile(path.join(root, 'floored/plain.txt'), 'plain');
      for (const directory of ['repo/.git/objects', 'repo/node_modules/pkg', 'repo/src'])
        await mkdir(path.join(root, directory), { recursive: true });
      await writeFile(path.join(root, 'repo/.git/HEAD'), 'ref');
      await writeFile(path.join(root, 'repo/node_modules/pkg/index.js'), '');
      await writeFile(path.join(root, 'repo/src/main.ts'), 'main');
      const deep = path.join(root, 'deep', ...Array.from({ length: 14 }, (_unused, k) => `d${k}`));
      await mkdir(deep, { recursive: true });
      await writeFile(path.join(deep, 'leaf.txt'), 'leaf');
      await mkdir(path.join(root, 'wide'));
      for (let file = 0; file < WIDE_FILES; file += 1)
        await writeFile(path.join(root, 'wide', `f${String(file).padStart(3, '0')}`), 'w');
      // Names the addon sorts (ASCII, capitals first) and names it leaves in the kernel's order
      // (not ASCII, not UTF-8: two of them read as the same string).
      await mkdir(path.join(root, 'names/Sub'), { recursive: true });
      for (const name of ['b', 'B', 'a.b', 'a-b', '_x', 'Sub/é', 'Sub/z'])
        await writeFile(path.join(root, 'names', name), 'n');
      await mkdir(path.join(root, 'mixed'));
      for (const name of ['é.txt', 'plain', '\u{1f600}', 'Ｆ', '.G\u200cIT'])
        await writeFile(path.join(root, 'mixed', name), 'm');
      await settleTimes(root);
      // After the times are settled: `settleTimes` reads names as strings, these are not.
      for (const byte of [0xff, 0xfe])
        writeFileSync(Buffer.concat([Buffer.from(`${root}/mixed/f`), Buffer.from([byte])]), 'm');
    });
    server = createServer();
    const socket = path.join(box.root, 'special', 'socket');
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    lutimesSync(socket, FILE_TIME, FILE_TIME);
    await utimes(path.join(box.root, 'special'), DIRECTORY_TIME, DIRECTORY_TIME);
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await box.close();
  });

  it.each([
    ['the whole tree', { path: '.', recursive: true }],
    [
      'the whole tree with .git and node_modules',
      { path: '.', recursive: true, includeIgnored: true },
    ],
    ['the symlinks alone', { path: 'links' }],
    ['an ignored directory named as the path', { path: 'repo/node_modules', recursive: true }],
    ['a glob over a wide directory', { path: '.', recursive: true, glob: 'wide/f1*' }],
    [
      'names sorted by the addon, and names left in the kernel order',
      { path: '.', recursive: true, glob: '{names,mixed}/**' },
    ],
  ])('renders %s byte for byte alike', async (_case, args) => {
    const native = await dispatchListing(box.host, 'native', args);
    const node = await dispatchListing(box.host, 'node', args);

    expect(native).toBe(node);
    expect(native).toContain('"type":"tool_result"');
  });

  it('lists what lstat sees: symlinks as symlinks, a FIFO and a socket as other, no floor entry', async () => {
    setListStatSource('native');
    const listing = await box.fs.listDirectory({ path: '.', recursive: true });
    const byName = new Map(listing.entries.map((entry) => [entry.name, entry]));

    for (const name of ['to-file', 'to-dir', 'out-file', 'out-dir', 'dangling'])
      expect(byName.get(`links/${name}`)?.type).toBe('symlink');
    // A symlink's own size is its target's length, never the outside file's.
    expect(byName.get('links/out-file')?.sizeBytes).toBe(
      path.join(box.outside, 'secret.txt').length,
    );
    expect([byName.get('special/fifo')?.type, byName.get('special/socket')?.type]).toEqual([
      'other',
      'other',
    ]);
    expect(byName.get('hard/outside')).toMatchObject({ type: 'file', sizeBytes: SECRET.length });
    expect(byName.get('wide/f000')?.lastModified).toBe('2023-11-14T22:13:20.123Z');
    expect(
      [...byName.keys()].filter((name) => /\.env|\.ssh|inside-outside|\.git/.test(name)),
    ).toEqual([]);
    expect(listing.entries).toHaveLength(listing.total ?? Number.NaN);
  });
});

describe.runIf(runsBoth)('list_directory while entries vanish mid-listing', () => {
  let box: Sandbox;
  let jail: Jail;

  beforeAll(async () => {
    box = await createSandbox({}, async ({ outside }) => {
      await writeFile(path.join(outside, 'secret.txt'), SECRET);
      await mkdir(path.join(outside, 'tree'));
      await writeFile(path.join(outside, 'tree', 'inside-outside.txt'), SECRET);
    });
    jail = await createJail({
      root: box.root,
      fsScope: 'sandboxed',
      extraRoots: [],
      floor: {
        stateDir: box.stateDir,
        spillDir: path.join(box.stateDir, 'spill'),
        configFile: path.join(box.root, 'toolhost.config.json'),
      },
    });
  });
  afterAll(async () => {
    await jail.close();
    await box.close();
  });

  // `early/x` (listed, queued) and `race/` (150 files, three subdirectories), reset each run.
  async function buildTree(): Promise<void> {
    for (const directory of ['early', 'race'])
      await rm(path.join(box.root, directory), { recursive: true, force: true });
    await mkdir(path.join(box.root, 'early/x/y'), { recursive: true });
    await writeFile(path.join(box.root, 'early/x/y/z.txt'), 'z');
    for (const sub of ['sub-a', 'sub-b', 'sub-c']) {
      await mkdir(path.join(box.root, 'race', sub), { recursive: true });
      await writeFile(path.join(box.root, 'race', sub, 'kept.txt'), 'k');
    }
    for (let file = 0; file < 150; file += 1)
      await writeFile(path.join(box.root, 'race', `f${String(file).padStart(3, '0')}`), 'r');
    await settleTimes(box.root);
  }

  // Once the listing has looked up `race/`'s first entries (it names the directory when it
  // shows the first), files, a queued directory and a listed one vanish or turn into symlinks.
  function racingHost(): ToolHost {
    const raceDirectory = path.join(box.root, 'race');
    let raced = false;
    const racing: Jail = {
      ...jail,
      displayName(real) {
        if (real === raceDirectory && !raced) {
          raced = true;
          for (const name of ['f001', 'f003', 'f100', 'f149'])
            unlinkSync(path.join(raceDirectory, name));
          for (const name of ['f005', 'f120']) {
            unlinkSync(path.join(raceDirectory, name));
            symlinkSync(path.join(box.outside, 'secret.txt'), path.join(raceDirectory, name));
            lutimesSync(path.join(raceDirectory, name), FILE_TIME, FILE_TIME);
          }
          rmSync(path.join(raceDirectory, 'sub-b'), { recursive: true });
          rmSync(path.join(raceDirectory, 'sub-c'), { recursive: true });
          symlinkSync(path.join(box.outside, 'tree'), path.join(raceDirectory, 'sub-c'));
          lutimesSync(path.join(raceDirectory, 'sub-c'), FILE_TIME, FILE_TIME);
          rmSync(path.join(box.root, 'early/x'), { recursive: true });
          mkdirSync(path.join(box.root, 'early/x'));
        }
        return jail.displayName(real);
      },
    };
    const fs = box.fs;
    return { ...box.host, fs: { ...fs, listDirectory: createListDirectory(racing) } };
  }

  async function raceListing(source: ListStatSourceKind): Promise<string> {
    await buildTree();
    return dispatchListing(racingHost(), source, { path: '.', recursive: true });
  }

  it('gives the same listing and rendering through either source', async () => {
    const native = await raceListing('native');
    const node = await raceListing('node');

    expect(native).toBe(node);
  });

  it('shows a vanished entry as gone and a swapped one as a symlink, never what it points to', async () => {
    for (const source of await listStatSources()) {
      const listing = JSON.parse(await raceListing(source)) as { output: DirectoryListing };
      const byName = new Map(listing.output.entries.map((entry) => [entry.name, entry]));

      for (const name of [
        'race/f003',
        'race/f100',
        'race/f149',
        'race/sub-b',
        'race/sub-b/kept.txt',
      ])
        expect(byName.has(name), `${source} ${name}`).toBe(false);
      for (const name of ['race/f005', 'race/f120', 'race/sub-c'])
        expect(byName.get(name)?.type, `${source} ${name}`).toBe('symlink');
      // Listed before it was replaced: the new `early/x` is another directory, never walked.
      expect(byName.get('early/x')?.type).toBe('directory');
      expect([...byName.keys()].filter((name) => /inside-outside|early\/x\//.test(name))).toEqual(
        [],
      );
      expect(listing.output.entries.some((entry) => entry.sizeBytes === SECRET.length)).toBe(false);
      expect(byName.get('race/sub-a/kept.txt')?.type).toBe('file');
    }
  });
});

// Every file and directory below `root` gets a fixed time (symlinks keep theirs: set at creation).
async function settleTimes(root: string): Promise<void> {
  const { readdir, lstat } = await import('node:fs/promises');
  const visit = async (directory: string): Promise<void> => {
    for (const name of await readdir(directory)) {
      const full = path.join(directory, name);
      const stats = await lstat(full);
      if (stats.isSymbolicLink()) lutimesSync(full, FILE_TIME, FILE_TIME);
      else if (stats.isDirectory()) await visit(full);
      else if (stats.isFile()) await utimes(full, FILE_TIME, FILE_TIME);
    }
    await utimes(directory, DIRECTORY_TIME, DIRECTORY_TIME);
  };
  await visit(root);
}
