import { randomBytes } from 'node:crypto';
import { constants, fstatSync, lstatSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { ToolPolicyError } from '@toolhost/core';
import type { AbortSignalLike, FileWrite, FsWriteRequest } from '@toolhost/core/host';
import { childPath } from './descriptor-path.js';
import type { DirectoryRef } from './descriptor-path.js';
import { beforeWriteEffect, fsFailure, throwIfAborted, toFsError } from './fs-error.js';
import type { Jail, WriteTarget } from './jail.js';

const TOOL_ID = 'write_file';
const { O_WRONLY, O_CREAT, O_EXCL, O_APPEND, O_NOFOLLOW, O_NONBLOCK } = constants;
const DEFAULT_MODE = 0o666;

/**
 * `write_file`: the target's directory is walked without following any symlink (a symlinked
 * directory is expanded and walked again from a root, as for a read) and verified where the kernel
 * says it is; the file is then created relative to that open directory, so a parent swapped
 * afterwards cannot redirect it. The leaf is never followed: a symlink there is refused. Replace = temp file + rename in that directory (a failed
 * write leaves the old content); append opens the file itself with `O_NOFOLLOW`.
 */
export function createWriteFile(jail: Jail) {
  return async function writeFile(
    request: FsWriteRequest,
    signal?: AbortSignalLike,
  ): Promise<FileWrite> {
    try {
      throwIfAborted(TOOL_ID, signal);
      const target = await jail.openParentForWrite(
        TOOL_ID,
        request.path,
        request.createDirs === true,
      );
      try {
        const existingMode = checkBeforeWriting(target, signal);
        const data = Buffer.from(request.content, 'utf8');
        if (request.append === true) await append(target.directory, target.name, data);
        else await replace(target.directory, target.name, data, existingMode, signal);
        return { path: jail.displayName(target.path), bytesWritten: data.byteLength };
      } finally {
        await target.release();
      }
    } catch (error) {
      throw toFsError(TOOL_ID, error, true);
    }
  };
}

// The last look before the first byte lands: a refusal here is before the call's effect unless
// the jail already made a missing parent directory.
function checkBeforeWriting(
  target: WriteTarget,
  signal: AbortSignalLike | undefined,
): number | undefined {
  try {
    throwIfAborted(TOOL_ID, signal);
    // Opening a device for writing can act on it, so look first; the descriptor is checked again.
    return checkExisting(target.directory, target.name);
  } catch (error) {
    throw target.createdDirectories ? error : beforeWriteEffect(TOOL_ID, error);
  }
}

async function replace(
  directory: DirectoryRef,
  name: string,
  data: Buffer,
  existingMode: number | undefined,
  signal: AbortSignalLike | undefined,
): Promise<void> {
  const temporary = childPath(directory, `.${randomBytes(6).toString('hex')}.toolhost-tmp`);
  const handle = await open(
    temporary,
    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW,
    existingMode ?? DEFAULT_MODE,
  );
  try {
    await writeAll(handle, data);
    // The umask may have narrowed the creation mode; an existing file keeps the mode it had.
    if (existingMode !== undefined && (fstatSync(handle.fd).mode & 0o7777) !== existingMode)
      await handle.chmod(existingMode);
    throwIfAborted(TOOL_ID, signal);
  } catch (error) {
    await handle.close();
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  // The bytes are written, so close and rename run together. rename never follows `name`: a
  // symlink swapped in since the check is replaced, not written through.
  const [closed, renamed] = await Promise.allSettled([
    handle.close(),
    rename(temporary, childPath(directory, name)),
  ]);
  if (renamed.status === 'rejected') {
    await unlink(temporary).catch(() => undefined);
    throw renamed.reason;
  }
  if (closed.status === 'rejected') throw closed.reason;
}

async function append(directory: DirectoryRef, name: string, data: Buffer): Promise<void> {
  // O_NONBLOCK: a FIFO swapped in since fails (ENXIO) instead of hanging the host.
  const handle = await open(
    childPath(directory, name),
    O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK,
    DEFAULT_MODE,
  );
  try {
    const stats = fstatSync(handle.fd);
    if (!stats.isFile()) throw fsFailure(TOOL_ID, 'unsupported_file_type', true);
    // Another name for this file may live outside the root.
    if (stats.nlink > 1) throw new ToolPolicyError(TOOL_ID, 'hard_link_refused');
    await writeAll(handle, data);
  } finally {
    await handle.close();
  }
}

// The mode to keep, or undefined for a new file; refuses what a write may never replace.
// Synchronous: one name looked up in an already-open directory, cheaper than a thread-pool hop.
function checkExisting(directory: DirectoryRef, name: string): number | undefined {
  const stats = lstatSync(childPath(directory, name), { throwIfNoEntry: false });
  if (stats === undefined) return undefined;
  if (stats.isSymbolicLink()) throw new ToolPolicyError(TOOL_ID, 'symlink_refused');
  if (stats.isDirectory()) throw fsFailure(TOOL_ID, 'is_directory', true);
  if (!stats.isFile()) throw fsFailure(TOOL_ID, 'unsupported_file_type', true);
  if (stats.nlink > 1) throw new ToolPolicyError(TOOL_ID, 'hard_link_refused');
  // Permission bits only: new content must never inherit setuid, setgid or sticky.
  return stats.mode & 0o777;
}

async function writeAll(handle: FileHandle, data: Buffer): Promise<void> {
  let written = 0;
  while (written < data.byteLength) {
    const { bytesWritten } = await handle.write(data, written, data.byteLength - written);
    written += bytesWritten;
  }
}
