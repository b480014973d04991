import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FS_AT_ENTRY, FS_AT_STAT, FS_AT_STATUS, loadFsAt } from './index.js';
import type { FsAtAddon } from './index.js';

const LOADER = fileURLToPath(new URL('./index.js', import.meta.url));
const ELOOP = 40;
const ENOENT = 2;
const CAP = 64;

// On Linux the addon must load: a missing build fails here instead of silently falling back.
describe.runIf(process.platform === 'linux')('the built addon', () => {
  let addon: FsAtAddon;
  let base: string;
  let directory: string;
  let dirfd: number;
  const buffer = Buffer.alloc(CAP * 4);
  const out = new Int32Array(2 * 16);

  // Reads `names` with the whole buffer as the budget; the text (or status) of each.
  const read = (names: readonly string[], budget = buffer.length) => {
    const stop = addon.readFiles(dirfd, names, 0, names.length, buffer, CAP, budget, out);
    return {
      stop,
      files: names.slice(0, stop).map((_name, k) => {
        const status = out[2 * k + 1] ?? 0;
        const offset = out[2 * k] ?? 0;
        return status < 0 ? status : buffer.toString('utf8', offset, offset + status);
      }),
    };
  };

  beforeAll(async () => {
    const loaded = loadFsAt();
    if (loaded === undefined) throw new Error('fs-at: addon not built');
    addon = loaded;
    base = await mkdtemp(path.join(tmpdir(), 'toolhost-fs-at-'));
    directory = path.join(base, 'dir');
    mkdirSync(directory);
    writeFileSync(path.join(base, 'outside.txt'), 'OUTSIDE');
    writeFileSync(path.join(directory, 'a.txt'), 'alpha');
    writeFileSync(path.join(directory, 'b.txt'), 'bravo');
    writeFileSync(path.join(directory, 'empty.txt'), '');
    writeFileSync(path.join(directory, 'cap.txt'), 'x'.repeat(CAP));
    writeFileSync(path.join(directory, 'over.txt'), 'x'.repeat(CAP + 1));
    symlinkSync(path.join(base, 'outside.txt'), path.join(directory, 'link.txt'));
    linkSync(path.join(base, 'outside.txt'), path.join(directory, 'hard.txt'));
    mkdirSync(path.join(directory, 'sub'));
    writeFileSync(path.join(directory, 'sub', 'inner.txt'), 'inner');
    execFileSync('mkfifo', [path.join(directory, 'fifo')]);
    dirfd = openSync(directory, constants.O_RDONLY | constants.O_DIRECTORY);
  });
  afterAll(async () => {
    closeSync(dirfd);
    await rm(base, { recursive: true, force: true });
  });

  it('reads regular files below the descriptor, one after another in the buffer', () => {
    const { stop, files } = read(['a.txt', 'empty.txt', 'b.txt', 'cap.txt']);

    expect(stop).toBe(4);
    expect(files).toEqual(['alpha', '', 'bravo', 'x'.repeat(CAP)]);
    expect([out[0], out[2], out[4], out[6]]).toEqual([0, 5, 5, 10]);
  });

  it('refuses a symlink with ELOOP, never following it', () => {
    expect(read(['link.txt']).files).toEqual([-ELOOP]);
  });

  it('refuses a hard link (a second name for a file that may be outside)', () => {
    expect(read(['hard.txt']).files).toEqual([FS_AT_STATUS.hardLink]);
  });

  it('opens a FIFO without blocking and refuses it as not regular', () => {
    // Were O_NONBLOCK missing, this open would wait for a writer forever.
    expect(read(['fifo', 'sub']).files).toEqual([FS_AT_STATUS.notRegular, FS_AT_STATUS.notRegular]);
  });

  it('refuses a device as not regular', () => {
    const devfd = openSync('/dev', constants.O_RDONLY | constants.O_DIRECTORY);
    try {
      const stop = addon.readFiles(devfd, ['null'], 0, 1, buffer, CAP, buffer.length, out);
      expect([stop, out[1]]).toEqual([1, FS_AT_STATUS.notRegular]);
    } finally {
      closeSync(devfd);
    }
  });

  it('skips a file over the cap, reading none of it', () => {
    expect(read(['over.txt', 'a.txt']).files).toEqual([FS_AT_STATUS.tooLarge, 'alpha']);
  });

  it('refuses names that are not one segment without a system call', () => {
    const names = ['..', '.', '', 'sub/inner.txt', '../outside.txt', 'a.txt\0/..', 'y'.repeat(256)];
    // strace is not at hand in every CI: that no lookup happens shows as no ENOENT/ENOTDIR,
    // and as `sub/inner.txt` (which exists) not being read.
    expect(read(names).files).toEqual(names.map(() => FS_AT_STATUS.badName));
    expect(read(['y'.repeat(255)]).files).toEqual([-ENOENT]);
  });

  it('gives a file removed since the listing as ENOENT', () => {
    expect(read(['gone.txt', 'a.txt']).files).toEqual([-ENOENT, 'alpha']);
  });

  it('stops a batch at its byte budget and says where', () => {
    // 5 + 5 fit a budget of 12; the 64-byte file does not and is left for the next batch.
    const first = read(['a.txt', 'b.txt', 'cap.txt', 'a.txt'], 12);
    expect(first).toEqual({ stop: 2, files: ['alpha', 'bravo'] });

    // A batch's first file is read whatever the budget, up to the cap.
    const stop = addon.readFiles(dirfd, ['a.txt', 'cap.txt', 'b.txt'], 1, 3, buffer, CAP, 12, out);
    expect([stop, out[0], out[1]]).toEqual([2, 0, CAP]);
  });

  it('leaves no descriptor open after 10 000 reads, refusals included', () => {
    const before = readdirSync('/proc/self/fd').length;
    const names = ['a.txt', 'link.txt', 'hard.txt', 'fifo', 'over.txt', 'gone.txt', '..', 'b.txt'];
    for (let round = 0; round < 1250; round += 1) read(names);

    expect(readdirSync('/proc/self/fd').length).toBe(before);
  });

  it('throws a TypeError for a bad argument, before opening anything', () => {
    const calls: (() => unknown)[] = [
      () => addon.readFiles(-100, ['a.txt'], 0, 1, buffer, CAP, CAP, out),
      () => addon.readFiles(dirfd, ['a.txt'], 0, 2, buffer, CAP, CAP, out),
      () => addon.readFiles(dirfd, ['a.txt'], 0, 1, buffer, buffer.length + 1, CAP, out),
      () => addon.readFiles(dirfd, ['a.txt'], 0, 1, buffer, CAP, buffer.length + 1, out),
      () => addon.readFiles(dirfd, ['a.txt'], 0, 1, buffer, CAP, CAP, new Int32Array(1)),
      () => addon.readFiles(dirfd, [7 as unknown as string], 0, 1, buffer, CAP, CAP, out),
      () => Reflect.apply(addon.readFiles, addon, [dirfd, ['a.txt']]),
    ];
    for (const call of calls) expect(call).toThrow(TypeError);
  });
});

describe.runIf(process.platform === 'linux')('statEntries', () => {
  let addon: FsAtAddon;
  let base: string;
  let directory: string;
  let dirfd: number;
  let server: Server;
  const out = new Float64Array(FS_AT_STAT.slots * 16);

  // The fields of each name, as numbers, from one call over `names`.
  const stat = (names: readonly string[]) => {
    addon.statEntries(dirfd, names, 0, names.length, out);
    return names.map((_name, k) => {
      const at = (field: number) => out[FS_AT_STAT.slots * k + field] ?? Number.NaN;
      return {
        status: at(FS_AT_STAT.status),
        mode: at(FS_AT_STAT.mode),
        size: at(FS_AT_STAT.size),
        mtimeMs: at(FS_AT_STAT.mtimeSec) * 1e3 + at(FS_AT_STAT.mtimeNsec) / 1e6,
        ino: at(FS_AT_STAT.ino),
        dev: at(FS_AT_STAT.dev),
        nlink: at(FS_AT_STAT.nlink),
      };
    });
  };
  const kind = (mode: number) => mode & constants.S_IFMT;
  // One entry of each kind the directory below holds.
  const ENTRIES = [
    'a.txt',
    'link.txt',
    'link-dir',
    'dangling',
    'hard.txt',
    'sub',
    'fifo',
    'socket',
  ];

  beforeAll(async () => {
    const loaded = loadFsAt();
    if (loaded === undefined) throw new Error('fs-at: addon not built');
    addon = loaded;
    base = await mkdtemp(path.join(tmpdir(), 'toolhost-fs-at-stat-'));
    directory = path.join(base, 'dir');
    mkdirSync(directory);
    writeFileSync(path.join(base, 'outside.txt'), 'OUTSIDE');
    writeFileSync(path.join(directory, 'a.txt'), 'alpha');
    symlinkSync(path.join(base, 'outside.txt'), path.join(directory, 'link.txt'));
    symlinkSync(base, path.join(directory, 'link-dir'));
    symlinkSync(path.join(base, 'nowhere'), path.join(directory, 'dangling'));
    linkSync(path.join(base, 'outside.txt'), path.join(directory, 'hard.txt'));
    mkdirSync(path.join(directory, 'sub'));
    writeFileSync(path.join(directory, 'sub', 'inner.txt'), 'inner');
    execFileSync('mkfifo', [path.join(directory, 'fifo')]);
    server = createServer();
    await new Promise<void>((resolve) => server.listen(path.join(directory, 'socket'), resolve));
    dirfd = openSync(directory, constants.O_RDONLY | constants.O_DIRECTORY);
  });
  afterAll(async () => {
    closeSync(dirfd);
    await new Promise((resolve) => server.close(resolve));
    await rm(base, { recursive: true, force: true });
  });

  it('gives what lstat gives for every kind of entry, byte for byte', () => {
    const names = ENTRIES;

    const expected = names.map((name) => {
      const { mode, size, mtimeMs, ino, dev, nlink } = lstatSync(path.join(directory, name));
      return { status: 0, mode, size, mtimeMs, ino, dev, nlink };
    });
    expect(stat(names)).toEqual(expected);
  });

  it('reports a symlink as a symlink, never the file or directory it points to', () => {
    const kinds = stat(['link.txt', 'link-dir', 'dangling']).map(({ mode }) => kind(mode));

    expect(kinds).toEqual([constants.S_IFLNK, constants.S_IFLNK, constants.S_IFLNK]);
  });

  it('types a FIFO, a socket, a directory and a hard link right', () => {
    const [fifo, socket, sub, hard] = stat(['fifo', 'socket', 'sub', 'hard.txt']);

    expect([fifo, socket, sub, hard].map((entry) => kind(entry?.mode ?? 0))).toEqual([
      constants.S_IFIFO,
      constants.S_IFSOCK,
      constants.S_IFDIR,
      constants.S_IFREG,
    ]);
    expect(hard?.nlink).toBe(2);
  });

  it('gives a name gone since the listing as ENOENT, its other fields zero', () => {
    const [gone, present] = stat(['gone.txt', 'a.txt']);

    expect(gone).toEqual({
      status: -ENOENT,
      mode: 0,
      size: 0,
      mtimeMs: 0,
      ino: 0,
      dev: 0,
      nlink: 0,
    });
    expect(present?.status).toBe(0);
  });

  it('refuses names that are not one segment without a lookup', () => {
    const names = ['..', '.', '', 'sub/inner.txt', '../outside.txt', 'a.txt\0/..', 'y'.repeat(256)];
    out.fill(7);

    // `sub/inner.txt` and `../outside.txt` exist: a lookup would have given status 0.
    expect(stat(names).map(({ status, mode }) => [status, mode])).toEqual(
      names.map(() => [FS_AT_STATUS.badName, 0]),
    );
    expect(stat(['y'.repeat(255)]).map(({ status }) => status)).toEqual([-ENOENT]);
  });

  it('fills only the slots of start..end', () => {
    out.fill(7);

    addon.statEntries(dirfd, ['gone.txt', 'a.txt', 'gone.txt'], 1, 2, out);

    expect(out[FS_AT_STAT.status]).toBe(0);
    expect(out[FS_AT_STAT.size]).toBe(5);
    expect(out[FS_AT_STAT.slots + FS_AT_STAT.status]).toBe(7);
  });

  // Every kind of name statEntries meets: entries of each type, gone ones, refused ones,
  // non-ASCII, a lone surrogate, the longest and one past it.
  const NAMES = [
    ...ENTRIES,
    'gone.txt',
    '..',
    '.',
    '',
    'sub/inner.txt',
    'é.txt',
    '\ud800',
    'y'.repeat(255),
    'y'.repeat(256),
  ];

  it('statJoined answers as statEntries for the same names, over any window', () => {
    const joinedOut = new Float64Array(out.length);
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...NAMES), { maxLength: 16 }),
        fc.nat(),
        fc.nat(),
        (names, a, b) => {
          const start = names.length === 0 ? 0 : a % (names.length + 1);
          const end = start + (names.length === 0 ? 0 : b % (names.length - start + 1));
          out.fill(7);
          joinedOut.fill(7);
          expect(addon.statEntries(dirfd, names, start, end, out)).toBe(end);
          expect(
            addon.statJoined(dirfd, names.join('\0'), names.length, start, end, joinedOut),
          ).toBe(end);
          expect([...joinedOut]).toEqual([...out]);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('statJoined refuses names it cannot count, before looking anything up', () => {
    out.fill(7);
    const calls: (() => unknown)[] = [
      // A name holding a NUL splits into two: the count no longer matches.
      () => addon.statJoined(dirfd, ['a.txt\0/..', 'sub'].join('\0'), 2, 0, 2, out),
      () => addon.statJoined(dirfd, 'a.txt', 0, 0, 0, out),
      () => addon.statJoined(dirfd, 'a.txt\0sub', 3, 0, 1, out),
      () => addon.statJoined(dirfd, 'a.txt', 1, 0, 2, out),
      () => addon.statJoined(dirfd, 'a.txt', 1, 1, 0, out),
      () => addon.statJoined(-100, 'a.txt', 1, 0, 1, out),
      () => addon.statJoined(dirfd, ['a.txt'] as unknown as string, 1, 0, 1, out),
      () => addon.statJoined(dirfd, 'a.txt', 1, 0, 1, new Float64Array(FS_AT_STAT.slots - 1)),
      () => Reflect.apply(addon.statJoined, addon, [dirfd, 'a.txt', 1]),
    ];
    for (const call of calls) expect(call).toThrow(TypeError);
    expect(out.every((value) => value === 7)).toBe(true);
    expect(addon.statJoined(dirfd, '', 0, 0, 0, out)).toBe(0);
  });

  it('leaves the descriptor count unchanged after 10 000 lookups, failures included', () => {
    const before = readdirSync('/proc/self/fd').length;
    const names = ['a.txt', 'link.txt', 'fifo', 'socket', 'sub', 'gone.txt', '..', 'hard.txt'];
    for (let round = 0; round < 1250; round += 1) stat(names);

    expect(readdirSync('/proc/self/fd').length).toBe(before);
  });

  it('reads the entries below the descriptor with their types, without . and ..', () => {
    const read = addon.readEntries(dirfd);
    if (typeof read === 'number') throw new Error(`readEntries failed: ${read}`);
    const entries: Record<string, unknown> = {};
    for (let slot = 0; slot < read.length; slot += 2) entries[String(read[slot])] = read[slot + 1];

    expect(entries).toEqual({
      'a.txt': FS_AT_ENTRY.file,
      dangling: FS_AT_ENTRY.symlink,
      fifo: FS_AT_ENTRY.other,
      'hard.txt': FS_AT_ENTRY.file,
      'link-dir': FS_AT_ENTRY.symlink,
      'link.txt': FS_AT_ENTRY.symlink,
      socket: FS_AT_ENTRY.other,
      sub: FS_AT_ENTRY.directory,
    });
    expect(read).toHaveLength(2 * readdirSync(directory).length);
  });

  it('gives -errno for a descriptor that is not a directory', () => {
    const filefd = openSync(path.join(directory, 'a.txt'), constants.O_RDONLY);
    try {
      expect(addon.readEntries(filefd)).toBe(-20); // ENOTDIR
    } finally {
      closeSync(filefd);
    }
  });

  it('leaves the descriptor count unchanged after 2 000 directory reads', () => {
    const before = readdirSync('/proc/self/fd').length;
    for (let round = 0; round < 2000; round += 1) addon.readEntries(dirfd);

    expect(readdirSync('/proc/self/fd').length).toBe(before);
    expect(() => addon.readEntries(-100)).toThrow(TypeError);
  });

  it('throws a TypeError for a bad argument', () => {
    const calls: (() => unknown)[] = [
      () => addon.statEntries(-100, ['a.txt'], 0, 1, out),
      () => addon.statEntries(dirfd, ['a.txt'], 0, 2, out),
      () => addon.statEntries(dirfd, ['a.txt'], 1, 0, out),
      () => addon.statEntries(dirfd, ['a.txt'], 0, 1, new Float64Array(FS_AT_STAT.slots - 1)),
      () =>
        addon.statEntries(
          dirfd,
          ['a.txt'],
          0,
          1,
          new Int32Array(FS_AT_STAT.slots) as unknown as Float64Array,
        ),
      () => addon.statEntries(dirfd, [7 as unknown as string], 0, 1, out),
      () => Reflect.apply(addon.statEntries, addon, [dirfd, ['a.txt']]),
    ];
    for (const call of calls) expect(call).toThrow(TypeError);
  });
});

describe('the loader', () => {
  it('returns undefined, never throws, when the addon was not built', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'toolhost-fs-at-'));
    try {
      await copyFile(LOADER, path.join(directory, 'index.js'));
      await copyFile(
        path.join(path.dirname(LOADER), '..', 'package.json'),
        path.join(directory, 'package.json'),
      );
      const printed = execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import { loadFsAt } from ${JSON.stringify(path.join(directory, 'index.js'))};
           console.log(String(loadFsAt()));`,
        ],
        { encoding: 'utf8' },
      );

      expect(printed.trim()).toBe('undefined');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('returns undefined, never throws, when the addon file is malformed', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'toolhost-fs-at-'));
    try {
      mkdirSync(path.join(directory, 'src'));
      mkdirSync(path.join(directory, 'build', 'Release'), { recursive: true });
      await copyFile(LOADER, path.join(directory, 'src', 'index.js'));
      writeFileSync(path.join(directory, 'package.json'), '{"type":"module"}');
      // Not a shared object: dlopen fails, and the loader must swallow it.
      writeFileSync(
        path.join(directory, 'build', 'Release', 'fs_at.node'),
        'module.exports = { readFiles: 1 };',
      );
      const printed = execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import { loadFsAt } from ${JSON.stringify(path.join(directory, 'src', 'index.js'))};
           console.log(String(loadFsAt()));`,
        ],
        { encoding: 'utf8' },
      );

      expect(printed.trim()).toBe('undefined');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
