import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ToolId } from '@toolhost/core';
import type { AbortSignalLike } from '@toolhost/core/host';
import { throwIfAborted } from './fs-error.js';

// The walk runs synchronously; it gives the event loop a turn this often, so an abort (or
// anything else the host is doing) can run.
const YIELD_EVERY_MS = 10;

/** When a synchronous search gives the event loop a turn, and the abort check after it. */
export interface SearchPace {
  /** Whether a turn is due: one clock read. */
  due(now?: number): boolean;
  /** Gives the event loop a turn, then throws the cancel error if the signal fired meanwhile. */
  pause(): Promise<void>;
}

/**
 * A pace for one search (or listing: `toolId` names the tool the cancel error is for); `signal`
 * is checked at every pause (only then can it have fired).
 */
export function createSearchPace(
  signal: AbortSignalLike | undefined,
  toolId: ToolId = 'search_files',
): SearchPace {
  let yielded = performance.now();
  return {
    due: (now = performance.now()) => now - yielded >= YIELD_EVERY_MS,
    async pause() {
      await nextTurn();
      yielded = performance.now();
      throwIfAborted(toolId, signal);
    },
  };
}
