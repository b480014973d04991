/**
 * Reads the regular files of a directory relative to its open descriptor, one native call per
 * batch: for each name `openat(dirfd, name, O_RDONLY|O_NOFOLLOW|O_NONBLOCK|O_NOCTTY|O_CLOEXEC)`,
 * `fstat`, the checks, `pread` of exactly `st_size` bytes, `close`. Linux only.
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
  /** The statuses `readFiles` gives that are not `-errno`: `FS_AT_STATUS`. */
  readonly status: typeof FS_AT_STATUS;
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

/** The addon, or `undefined` when it is not built or not loadable here. Never throws. */
export function loadFsAt(): FsAtAddon | undefined;
