import type { ToolOutputStore } from '../tool-host.js';

/**
 * Steps 6–8 as one call of the host's spill quota: the process output the host spills and the
 * bounded result are charged to the same per-call budget, not to two.
 */
export function withinCall<T>(
  store: ToolOutputStore | undefined,
  work: () => Promise<T>,
): Promise<T> {
  return store?.runCall === undefined ? work() : store.runCall(work);
}
