/**
 * Reads the regular files of a directory relative to its open descriptor, one native call per
 * batch: for each name `openat(dirfd, name, O_RDONLY|O_NOFOLLOW|O_NONBLOCK|O_NOCTTY|O_CLOEXEC)`,
 * `fstat`, the checks, `pread` of exactly `st_size` bytes, `close`; and lstats a directory's
 * entries the same way (`fstatat(dirfd, name, AT_SYMLINK_NOFOLLOW)`). Linux only.
 */
export interface FsAtAddon {
  /**
   * Reads `names[start..end)` below `dirfd` into `buffer`, one after another. For the k-th name
   * (k = i - start), `out[2k]` is its offset in `buffer` and `out[2k + 1]` its status: the
   * length read (>= 0), `-errno` (ENOENT raced away, EACCES, ELOOP for a symlink), or one of
   * `FS_AT_STATUS`. A name with a `/` or a NUL, `.`, `..`, empty or over 255 bytes is
   * `badName`, never looked up. The first file read goes at offset 0 (any size up to `cap`); a
   * later one that would end past `budget` is not read: the call returns the index it stopped
   * at (`end` when it read them all). Every descriptor is closed before it returns. Throws a
   * TypeError for a bad argument: a negative `dirfd` (never `AT_FDCWD`), `cap` or `budget` over
   * the buffer's length, `out` shorter than two slots a name (all before opening anything), or
   * a name that is not a string (when it is reached; no descriptor is left open).
   */
  readFiles(
    dirfd: number,
    names: readonly string[],
    start: number,
    end: number,
    buffer: Buffer,
    cap: number,
    budget: number,
    out: Int32Array,
  ): number;
  /**
   * Lstats `names[start..end)` below `dirfd`: `fstatat(dirfd, name, AT_SYMLINK_NOFOLLOW)`, so a
   * symlink is reported as a symlink, never followed. The k-th name (k = i - start) fills
   * `out[FS_AT_STAT.slots * k + field]` for each field of `FS_AT_STAT`: `status` is 0, `-errno`
   * (ENOENT for a name gone since the listing) or `FS_AT_STATUS.badName` (the names `readFiles`
   * refuses, never looked up); on a failure the other fields are 0. The values are the doubles
   * Node's `Stats` holds. Opens no descriptor. Returns `end`. Throws a TypeError for a bad
   * argument, as `readFiles` does (`out` must be a `Float64Array` of `slots` doubles a name).
   */
  statEntries(
    dirfd: number,
    names: readonly string[],
    start: number,
    end: number,
    out: Float64Array,
  ): number;
  /**
   * `statEntries(dirfd, names, start, end, out)` with the names given as one string,
   * `names.join("\0")`, and their count: one string crosses into C for a whole directory
   * instead of one per name. The same answers for the same names. Throws a TypeError, before
   * looking anything up, when `joined` does not split into exactly `count` names (a name that
   * holds a NUL), or for a bad argument as `statEntries` does.
   */
  statJoined(
    dirfd: number,
    joined: string,
    count: number,
    start: number,
    end: number,
    out: Float64Array,
  ): number;
  /**
   * Reads the entries of the directory `dirfd` is open on: opens it again as `"."` relative to
   * `dirfd` (the same inode, never a path), reads it to the end and closes it. Gives
   * `[name, type, name, type, …]` in the kernel's order without `.` and `..`, each type one of
   * `FS_AT_ENTRY` (`d_type`; where the filesystem gives none, lstat's answer, `other` if the
   * entry is gone), or `-errno` when the directory cannot be opened or read. Names that are
   * not UTF-8 carry U+FFFD, as Node's `readdir` gives them. Throws a TypeError for a bad `dirfd`.
   */
  readEntries(dirfd: number): (string | number)[] | number;
  /**
   * `readEntries` as two values, not two a name: `[names, types]`, or `-errno`. `types` holds
   * one digit an entry, its `FS_AT_ENTRY` type (`types.length` is the count). When every name
   * is ASCII the entries come in byte order (their code-unit order) and `names` is one string,
   * the names joined by `"\0"` (`""` for none); otherwise they keep the kernel's order (two
   * names that are not UTF-8 may read as the same U+FFFD string) and `names` is an array.
   * Throws a TypeError for a bad `dirfd`.
   */
  listEntries(dirfd: number): [names: string | string[], types: string] | number;
  /** The statuses `readFiles` gives that are not `-errno`: `FS_AT_STATUS`. */
  readonly status: typeof FS_AT_STATUS;
  /** The layout of `statEntries`' output: `FS_AT_STAT`. */
  readonly stat: typeof FS_AT_STAT;
  /** The entry types of `readEntries`: `FS_AT_ENTRY`. */
  readonly entry: typeof FS_AT_ENTRY;
}

/** Per-file statuses that are not `-errno`: all below -4095, the lowest errno's negation. */
export declare const FS_AT_STATUS: Readonly<{
  /** `st_size` over the cap: not read. */
  tooLarge: -10001;
  /** Not a regular file (a FIFO, device, socket or directory swapped in): not read. */
  notRegular: -10002;
  /** `st_nlink > 1`: a second name for a file that may live outside the root. Not read. */
  hardLink: -10003;
  /** Not a single path segment: refused without a system call. */
  badName: -10004;
}>;

/** The layout of `statEntries`' output: a run of `slots` doubles a name, each field's index in it. */
export declare const FS_AT_STAT: Readonly<{
  slots: 8;
  status: 0;
  mode: 1;
  size: 2;
  /** `st_mtim.tv_sec`; Node's `mtimeMs` is `mtimeSec * 1e3 + mtimeNsec / 1e6`. */
  mtimeSec: 3;
  mtimeNsec: 4;
  ino: 5;
  dev: 6;
  nlink: 7;
}>;

/** The entry types `readEntries` gives. */
export declare const FS_AT_ENTRY: Readonly<{ other: 0; file: 1; directory: 2; symlink: 3 }>;

/** The addon, or `undefined` when it is not built or not loadable here. Never throws. */
export function loadFsAt(): FsAtAddon | undefined;
