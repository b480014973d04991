import { randomBytes } from 'node:crypto';
import { fstatSync, lstatSync } from 'node:fs';
import type { BigIntStats } from 'node:fs';
import { constants } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { ToolExecutionError } from '@toolhost/core';
import type { ToolId } from '@toolhost/core';
import type { AbortSignalLike } from '@toolhost/core/host';
import { childPath } from './descriptor-path.js';
import type { DirectoryRef } from './descriptor-path.js';
import { throwIfAborted } from './fs-error.js';

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;

/** A file as one read saw it: the open descriptor, its bytes and its identity at that moment. */
export interface ReadSnapshot {
  readonly handle: FileHandle;
  readonly bytes: Buffer;
  readonly stats: BigIntStats;
}

/** Where and what `writeIfUnchanged` writes. */
export interface UnchangedWrite {
  readonly toolId: ToolId;
  /** The verified directory the file was read in; the temp file and the rename stay in it. */
  readonly directory: DirectoryRef;
  readonly name: string;
  readonly snapshot: ReadSnapshot;
  readonly data: Buffer;
  readonly signal?: AbortSignalLike | undefined;
}

/**
 * Replaces `name` with `data` (temp file + rename in the verified directory) only if it is still
 * the file the snapshot read: the same inode, size, mtime and ctime under that name, and the same
 * bytes (a same-size write within one timestamp tick changes nothing else). Otherwise nothing is
 * written and the call fails `file_changed`, which the model can fix by reading again: a
 * concurrent edit is refused, never lost. The check and the rename are adjacent, not atomic: no
 * POSIX call renames only if unchanged, so a writer landing between them is the residual window.
 */
export async function writeIfUnchanged(write: UnchangedWrite): Promise<void> {
  const { toolId, directory, name, snapshot, data, signal } = write;
  // Permission bits only: new content must never inherit setuid, setgid or sticky.
  const mode = Number(snapshot.stats.mode & 0o777n);
  const temporary = childPath(directory, `.${randomBytes(6).toString('hex')}.toolhost-tmp`);
  const handle = await open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
  try {
    try {
      await writeAll(handle, data);
      // The umask may have narrowed the creation mode; the file keeps the mode it had.
      if ((fstatSync(handle.fd).mode & 0o777) !== mode) await handle.chmod(mode);
    } finally {
      await handle.close();
    }
    throwIfAborted(toolId, signal);
    if (await changedSince(snapshot, directory, name)) throw fileChanged(toolId);
    // rename never follows `name`: a symlink swapped in since is replaced, not written through.
    await rename(temporary, childPath(directory, name));
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/** The refusal of a write whose file changed since it was read; nothing was written. */
export function fileChanged(toolId: ToolId): ToolExecutionError {
  return new ToolExecutionError(toolId, 'file_changed', {
    correctable: true,
    recoverable: true,
    retryable: true,
    detail: 'The file changed after it was read, so nothing was written. Read it again and retry.',
  });
}

async function changedSince(
  snapshot: ReadSnapshot,
  directory: DirectoryRef,
  name: string,
): Promise<boolean> {
  // Under the name: a rename over it (a new inode) or a deletion. On the descriptor: the bytes.
  const now = lstatSync(childPath(directory, name), { bigint: true, throwIfNoEntry: false });
  if (now === undefined || !sameIdentity(snapshot.stats, now)) return true;
  const again = Buffer.allocUnsafe(snapshot.bytes.byteLength + 1);
  let filled = 0;
  while (filled < again.byteLength) {
    const { bytesRead } = await snapshot.handle.read(
      again,
      filled,
      again.byteLength - filled,
      filled,
    );
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled !== snapshot.bytes.byteLength || !again.subarray(0, filled).equals(snapshot.bytes);
}

function sameIdentity(before: BigIntStats, now: BigIntStats): boolean {
  return (
    before.dev === now.dev &&
    before.ino === now.ino &&
    before.size === now.size &&
    before.mtimeNs === now.mtimeNs &&
    before.ctimeNs === now.ctimeNs &&
    now.isFile() &&
    now.nlink === 1n
  );
}

async function writeAll(handle: FileHandle, data: Buffer): Promise<void> {
  let written = 0;
  while (written < data.byteLength) {
    const { bytesWritten } = await handle.write(data, written, data.byteLength - written);
    written += bytesWritten;
  }
}
