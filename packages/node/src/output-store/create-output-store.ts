import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ToolCancelledError, ToolExecutionError } from '@toolhost/core';
import type {
  AbortSignalLike,
  SpilledResult,
  ToolOutputStore,
  ToolResultLimits,
} from '@toolhost/core';
import { createSpillQuota, type SpillQuota, type SpillQuotaOptions } from './spill-quota.js';

/** The Node output store: core's `ToolOutputStore`, its run directory and its reclaim. */
export interface NodeOutputStore extends ToolOutputStore {
  /** The run's spill directory; the fs arm may read it, no tool may write it. */
  readonly directory: string;
  /** What calls may still spill; process output spills draw from it too. */
  readonly quota: SpillQuota;
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

  return {
    directory,
    quota,
    runCall: quota.runCall,

    async spill(
      text: string,
      _limits: ToolResultLimits,
      signal?: AbortSignalLike,
    ): Promise<SpilledResult> {
      if (signal?.aborted === true)
        throw new ToolCancelledError(undefined, { cause: signal.reason });
      const byteLength = Buffer.byteLength(text, 'utf8');
      // Refused whole: the bounded result then says its full output is unavailable.
      if (!quota.callBudget().takeAll(byteLength))
        throw new ToolExecutionError(SPILL_TOOL_ID, 'spill_quota_exceeded');
      sequence += 1;
      const ref = path.join(
        directory,
        `${String(sequence).padStart(6, '0')}-${randomBytes(4).toString('hex')}.txt`,
      );
      // O_EXCL|O_NOFOLLOW: a planted file or symlink at the name fails instead of being written
      // through. `writeFile` by path, not a FileHandle: its one-shot write is ~2.5x faster at 1 MiB.
      await writeFile(ref, text, { flag: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o600 });
      return { ref, byteLength };
    },

    async close() {
      await rm(directory, { recursive: true, force: true });
    },
  };
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
