import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { finished, Writable } from 'node:stream';
import {
  createSpillQuota,
  type SpillBudget,
  type SpillQuota,
} from '../output-store/spill-quota.js';
import type { OpenProcessSpill } from './capture-output.js';

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;

/**
 * Spills overflowing process output into new files in the run's spill directory (the output
 * store's): owner-only, never through a planted file or symlink, swept with the run. What a
 * stream spills is charged to the call's budget (stdout and stderr share it) and to the run's:
 * past either, the file stops growing while the stream is still read to its end. Without a
 * quota the default limits apply, never none.
 */
export function createSpillOpener(
  directory: string,
  quota: SpillQuota = createSpillQuota(),
): OpenProcessSpill {
  return async (stream) => {
    // Taken before the first await: the call's async context is the one `open` was called in.
    const budget = quota.callBudget();
    const ref = path.join(directory, `process-${stream}-${randomBytes(8).toString('hex')}.txt`);
    const handle = await open(ref, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
    const gated = gateByBudget(handle.createWriteStream(), budget);
    return { writable: gated.writable, ref, keptBytes: gated.keptBytes };
  };
}

// Passes on what the budget grants and drops the rest, keeping the file's backpressure.
function gateByBudget(
  file: Writable,
  budget: SpillBudget,
): { writable: Writable; keptBytes: () => number } {
  let kept = 0;
  const writable = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      const granted = budget.take(chunk.length);
      kept += granted;
      if (granted === 0) return callback();
      if (file.write(granted === chunk.length ? chunk : chunk.subarray(0, granted))) callback();
      else file.once('drain', () => callback());
    },
    final(callback) {
      finished(file, (error) => callback(error ?? null));
      file.end();
    },
    destroy(error, callback) {
      file.destroy();
      callback(error);
    },
  });
  file.once('error', (error) => writable.destroy(error));
  return { writable, keptBytes: () => kept };
}
