import { constants, fstatSync, lstatSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { ToolPolicyError } from '@toolhost/core';
import type { AbortSignalLike, FileEdit, FsEditRequest } from '@toolhost/core/host';
import { applyEdits } from './apply-edits.js';
import { childPath, descriptorPath } from './descriptor-path.js';
import { formatEditDiff } from './edit-diff.js';
import { beforeWriteEffect, fsFailure, throwIfAborted, toFsError } from './fs-error.js';
import type { Jail, WriteTarget } from './jail.js';
import { BINARY_SNIFF_BYTES, MAX_READ_BYTES } from './read-file.js';
import { writeIfUnchanged } from './write-if-unchanged.js';
import type { ReadSnapshot } from './write-if-unchanged.js';

const TOOL_ID = 'edit_file';
const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = constants;
// Fatal: a file that is not valid UTF-8 would be rewritten with replacement characters.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Test seams; the host passes none. */
export interface EditFileHooks {
  /** Runs after the file was read and edited in memory, before the write. */
  readonly beforeWrite?: () => Promise<void>;
}

/**
 * `edit_file`: the file is reached like a write (the parent walked without following symlinks
 * and verified, the write floor judged; it holds the read floor too, which matters here since
 * the diff shows the file's lines). It is read once through a descriptor opened in that
 * directory with `O_NOFOLLOW`, edited in memory, and replaced by temp file + rename in the same
 * directory only if it did not change since that read. A dry run stops before the write.
 */
export function createEditFile(jail: Jail, hooks: EditFileHooks = {}) {
  return async function editFile(
    request: FsEditRequest,
    signal?: AbortSignalLike,
  ): Promise<FileEdit> {
    const dryRun = request.dryRun === true;
    try {
      throwIfAborted(TOOL_ID, signal);
      const target = await jail.openParentForWrite(TOOL_ID, request.path, false);
      try {
        let snapshot: ReadSnapshot;
        try {
          snapshot = await readSnapshot(target);
        } catch (error) {
          // Nothing is written before the read: its refusal precedes any effect.
          throw beforeWriteEffect(TOOL_ID, error, !dryRun);
        }
        try {
          let original: string;
          let applied: ReturnType<typeof applyEdits>;
          try {
            throwIfAborted(TOOL_ID, signal);
            original = decode(snapshot.bytes, dryRun);
            applied = applyEdits(original, request.edits);
          } catch (error) {
            throw beforeWriteEffect(TOOL_ID, error, !dryRun);
          }
          const path = jail.displayName(target.path);
          const diff = formatEditDiff(path, original, applied.text, applied.regions);
          // An edit that changes nothing writes nothing (and moves no mtime).
          if (!dryRun && applied.text !== original) {
            await hooks.beforeWrite?.();
            throwIfAborted(TOOL_ID, signal);
            await writeIfUnchanged({
              toolId: TOOL_ID,
              directory: target.directory,
              name: target.name,
              snapshot,
              data: Buffer.from(applied.text, 'utf8'),
              signal,
            });
          }
          return { path, replacements: applied.replacements, diff };
        } finally {
          await snapshot.handle.close();
        }
      } finally {
        await target.release();
      }
    } catch (error) {
      throw toFsError(TOOL_ID, error, !dryRun);
    }
  };
}

// Opened in the verified directory and checked where the kernel says it is: a symlink, a hard
// link, a device or FIFO, or a file too large to read whole is refused before a byte is read.
async function readSnapshot(target: WriteTarget): Promise<ReadSnapshot> {
  const leaf = childPath(target.directory, target.name);
  // Looked at first: opening a device can act on it.
  const seen = lstatSync(leaf, { throwIfNoEntry: false });
  if (seen === undefined) throw fsFailure(TOOL_ID, 'not_found', true);
  if (seen.isSymbolicLink()) throw new ToolPolicyError(TOOL_ID, 'symlink_refused');
  if (seen.isDirectory()) throw fsFailure(TOOL_ID, 'is_directory', true);
  if (!seen.isFile()) throw fsFailure(TOOL_ID, 'unsupported_file_type', true);
  // O_NONBLOCK: a FIFO swapped in since fails the checks below instead of hanging the host.
  const handle = await open(leaf, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  try {
    const stats = fstatSync(handle.fd, { bigint: true });
    if (!stats.isFile()) throw fsFailure(TOOL_ID, 'unsupported_file_type', true);
    // Another name for this file may live outside the root.
    if (stats.nlink > 1n) throw new ToolPolicyError(TOOL_ID, 'hard_link_refused');
    if (descriptorPath(handle.fd, target.path) !== target.path) {
      throw new ToolPolicyError(TOOL_ID, 'symlink_refused');
    }
    if (stats.size > BigInt(MAX_READ_BYTES)) throw fsFailure(TOOL_ID, 'too_large', true);
    const size = Number(stats.size);
    const bytes = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await handle.read(bytes, filled, size - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return { handle, bytes: filled === size ? bytes : bytes.subarray(0, filled), stats };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

function decode(bytes: Buffer, dryRun: boolean): string {
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0))
    throw fsFailure(TOOL_ID, 'binary', !dryRun);
  try {
    return UTF8.decode(bytes);
  } catch {
    throw fsFailure(TOOL_ID, 'not_utf8', !dryRun);
  }
}
