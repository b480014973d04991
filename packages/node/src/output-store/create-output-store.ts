import { randomBytes } from 'node:crypto';
import { closeSync, constants, open, unlinkSync, writev } from 'node:fs';
import { lstat, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { ToolCancelledError, ToolExecutionError } from '@toolhost/core';
import type { ToolResultLimits } from '@toolhost/core';
import type {
  AbortSignalLike,
  SpilledResult,
  SpillPart,
  ToolOutputStore,
} from '@toolhost/core/host';
import {
  createSpillQuota,
  type SpillBudget,
  type SpillQuota,
  type SpillQuotaOptions,
} from './spill-quota.js';

/** The Node output store: core's `ToolOutputStore`, its run directory and its reclaim. */
export interface NodeOutputStore extends ToolOutputStore {
  /** The run's spill directory; the fs arm may read it, no tool may write it. */
  readonly directory: string;
  /** What calls may still spill; process output spills draw from it too. */
  readonly quota: SpillQuota;
  /** `spillParts`, charged to `budget` (a call's, held by its host view). */
  spillCharged(
    budget: SpillBudget,
    parts: readonly SpillPart[],
    limits: ToolResultLimits,
    signal?: AbortSignalLike,
  ): Promise<SpilledResult>;
  /** Removes every file this run spilled. */
  close(): Promise<void>;
}

/** Spec §2.3: leftovers of runs that never closed are swept after a day. */
export const SPILL_MAX_AGE_MS = 24 * 60 * 60 * 1000;

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;
// The store serves every tool; its refusal names no call's tool.
const SPILL_TOOL_ID = 'output_store';

/**
 * Creates `<stateDir>/spill/<runId>` (owner-only) after sweeping other runs' directories older
 * than a day. Each spill is a new 0600 file, so one result never overwrites another; a result
 * the call's or the run's spill quota cannot hold whole is refused, never written in part.
 */
export async function createOutputStore(
  stateDir: string,
  runId: string,
  now: number = Date.now(),
  quotaOptions: SpillQuotaOptions = {},
): Promise<NodeOutputStore> {
  const quota = createSpillQuota(quotaOptions);
  const spillRoot = path.join(stateDir, 'spill');
  await mkdir(spillRoot, { recursive: true, mode: 0o700 });
  await sweepStale(spillRoot, runId, now);
  const directory = path.join(spillRoot, runId);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  let sequence = 0;

  const spillCharged = async (
    budget: SpillBudget,
    parts: readonly SpillPart[],
    _limits: ToolResultLimits,
    signal?: AbortSignalLike,
  ): Promise<SpilledResult> => {
    if (signal?.aborted === true) throw new ToolCancelledError(undefined, { cause: signal.reason });
    // UTF-8 never takes fewer bytes than UTF-16 code units: a text longer than what is left is
    // refused (whole: the bounded result then says its full output is unavailable) unencoded.
    if (leastBytes(parts) > budget.remaining())
      throw new ToolExecutionError(SPILL_TOOL_ID, 'spill_quota_exceeded');
    sequence += 1;
    const ref = path.join(
      directory,
      `${String(sequence).padStart(6, '0')}-${randomBytes(4).toString('hex')}.txt`,
    );
    // Creating a file costs a thread-pool hop and the inode's allocation (a millisecond on some
    // disks): it runs while the text is encoded, not after.
    const creating = createNewFile(ref);
    // Encoded once: the bytes written are the bytes counted (a byte count of its own was a
    // second full pass over a megabyte text). Byte parts are written as they are.
    let buffers: Buffer[];
    try {
      buffers = parts.map(toBuffer);
    } catch (error) {
      discard(ref, await creating.catch(() => undefined));
      throw error;
    }
    const byteLength = buffers.reduce((total, buffer) => total + buffer.byteLength, 0);
    const granted = budget.takeAll(byteLength);
    const fd = await creating;
    if (!granted) {
      discard(ref, fd);
      throw new ToolExecutionError(SPILL_TOOL_ID, 'spill_quota_exceeded');
    }
    try {
      await writeAll(fd, buffers, byteLength);
    } finally {
      closeSync(fd);
    }
    return { ref, byteLength };
  };
  // Outside a call's view: the call found through the async context, else one of its own.
  const spillParts = (
    parts: readonly SpillPart[],
    limits: ToolResultLimits,
    signal?: AbortSignalLike,
  ): Promise<SpilledResult> => spillCharged(quota.callBudget(), parts, limits, signal);

  return {
    directory,
    quota,
    runCall: quota.runCall,

    spill(text: string, limits: ToolResultLimits, signal?: AbortSignalLike) {
      return spillParts([text], limits, signal);
    },

    spillParts,
    spillCharged,

    async close() {
      await rm(directory, { recursive: true, force: true });
    },
  };
}

// O_EXCL|O_NOFOLLOW: a planted file or symlink at the name fails instead of being written
// through. A bare descriptor, closed synchronously: a FileHandle's close is one more hop.
function createNewFile(ref: string): Promise<number> {
  return new Promise((resolve, reject) => {
    open(ref, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600, (error, fd) => {
      if (error === null) resolve(fd);
      else reject(error);
    });
  });
}

// A refused spill leaves no file behind: the empty one created for it goes.
function discard(ref: string, fd: number | undefined): void {
  if (fd === undefined) return;
  closeSync(fd);
  unlinkSync(ref);
}

function leastBytes(parts: readonly SpillPart[]): number {
  let bytes = 0;
  for (const part of parts) bytes += typeof part === 'string' ? part.length : part.byteLength;
  return bytes;
}

// A view, not a copy, of a byte part.
function toBuffer(part: SpillPart): Buffer {
  return typeof part === 'string'
    ? Buffer.from(part, 'utf8')
    : Buffer.from(part.buffer, part.byteOffset, part.byteLength);
}

// One `writev` for all the parts; a short write resumes where it stopped.
async function writeAll(fd: number, buffers: Buffer[], byteLength: number): Promise<void> {
  let pending = buffers.filter((buffer) => buffer.byteLength > 0);
  for (let written = 0; written < byteLength;) {
    const count = await writevAt(fd, pending, written);
    if (count === 0) throw new Error('toolhost: a spill write made no progress');
    written += count;
    pending = dropWritten(pending, count);
  }
}

function dropWritten(buffers: Buffer[], count: number): Buffer[] {
  let left = count;
  let index = 0;
  while (index < buffers.length && left >= (buffers[index]?.byteLength ?? 0)) {
    left -= buffers[index]?.byteLength ?? 0;
    index += 1;
  }
  const rest = buffers.slice(index);
  const first = rest[0];
  if (first !== undefined && left > 0) rest[0] = first.subarray(left);
  return rest;
}

function writevAt(fd: number, buffers: Buffer[], position: number): Promise<number> {
  return new Promise((resolve, reject) => {
    writev(fd, buffers, position, (error, count) => {
      if (error === null) resolve(count);
      else reject(error);
    });
  });
}

async function sweepStale(spillRoot: string, currentRunId: string, now: number): Promise<void> {
  for (const name of await readdir(spillRoot)) {
    if (name === currentRunId) continue;
    const entry = path.join(spillRoot, name);
    try {
      // lstat: a symlink planted here is removed itself, never followed.
      if (now - (await lstat(entry)).mtimeMs > SPILL_MAX_AGE_MS)
        await rm(entry, { recursive: true, force: true });
    } catch {
      // Removed by a concurrent sweep.
    }
  }
}
