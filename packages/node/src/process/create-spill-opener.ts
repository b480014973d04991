import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import type { OpenProcessSpill } from './capture-output.js';

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;

/**
 * Spills overflowing process output into new files in the run's spill directory (the output
 * store's): owner-only, never through a planted file or symlink, swept with the run.
 */
export function createSpillOpener(directory: string): OpenProcessSpill {
  return async (stream) => {
    const ref = path.join(directory, `process-${stream}-${randomBytes(8).toString('hex')}.txt`);
    const handle = await open(ref, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
    return { writable: handle.createWriteStream(), ref };
  };
}
