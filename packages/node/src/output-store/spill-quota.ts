import { AsyncLocalStorage } from 'node:async_hooks';

/** How much one call and one run may write to the spill directory. */
export interface SpillQuotaOptions {
  /** Everything one call spills: its stdout, its stderr and its bounded result. */
  readonly maxBytesPerCall?: number;
  /** Everything the run spills, over all its calls. */
  readonly maxBytesPerRun?: number;
}

/** A hostile `cat /dev/zero` once spilled 2.4 GiB in 5 s: one call gets this much, no more. */
export const DEFAULT_SPILL_BYTES_PER_CALL = 256 * 1024 * 1024;
/** The run's whole spill directory, whatever the number of calls. */
export const DEFAULT_SPILL_BYTES_PER_RUN = 1024 * 1024 * 1024;

/** What one call may still spill; every byte granted is charged to the call and to the run. */
export interface SpillBudget {
  /** Grants up to `bytes` (fewer, down to 0, once the call or the run is spent). */
  take(bytes: number): number;
  /** Grants all of `bytes` or nothing: a spilled result is whole or not spilled. */
  takeAll(bytes: number): boolean;
  /** What the call may still spill (its own budget and the run's, whichever is less). */
  remaining(): number;
}

/** The run's spill quota, and the budget of the call in progress. */
export interface SpillQuota {
  /**
   * Runs `work` as one call: every spill inside it (in any async continuation) shares a budget.
   * Inside a call already open, `work` joins that call.
   */
  runCall<T>(work: () => Promise<T>): Promise<T>;
  /** The budget of the call in progress; outside `runCall`, a spill is a call of its own. */
  callBudget(): SpillBudget;
  /** A fresh call's budget, held explicitly (a dispatch's per-call host view holds one). */
  openBudget(): SpillBudget;
  /**
   * Runs `work` inside the call `budget` belongs to: spills found through the async context
   * (a process's output, spilled deep inside the spawn) are charged to it.
   */
  runWithBudget<T>(budget: SpillBudget, work: () => Promise<T>): Promise<T>;
}

/** Checks the limits and creates the run's quota; a bad limit fails at creation. */
export function createSpillQuota(options: SpillQuotaOptions = {}): SpillQuota {
  const perCall = checkLimit(options.maxBytesPerCall, DEFAULT_SPILL_BYTES_PER_CALL, 'Call');
  const perRun = checkLimit(options.maxBytesPerRun, DEFAULT_SPILL_BYTES_PER_RUN, 'Run');
  let runLeft = perRun;
  // A spawn finds its call through its async context, not an argument: a process call's stdout
  // and stderr are spilled from deep inside the spawn, which knows nothing of calls. Entered
  // only around a spawn (or an explicit `runCall`): on Node 20 the first `run` makes every
  // later promise of the process pay for context tracking, so a dispatch holds its budget
  // explicitly instead (`openBudget`, through the host's per-call view).
  const current = new AsyncLocalStorage<SpillBudget>();

  const openCall = (): SpillBudget => {
    let callLeft = perCall;
    const take = (bytes: number): number => {
      const granted = Math.max(0, Math.min(bytes, callLeft, runLeft));
      callLeft -= granted;
      runLeft -= granted;
      return granted;
    };
    return {
      take,
      takeAll: (bytes) => bytes <= Math.min(callLeft, runLeft) && take(bytes) === bytes,
      remaining: () => Math.min(callLeft, runLeft),
    };
  };

  return {
    // A call already open (dispatch opened it around the host work) is joined, not split.
    runCall: (work) => (current.getStore() === undefined ? current.run(openCall(), work) : work()),
    callBudget: () => current.getStore() ?? openCall(),
    openBudget: openCall,
    runWithBudget: (budget, work) =>
      current.getStore() === budget ? work() : current.run(budget, work),
  };
}

function checkLimit(value: number | undefined, fallback: number, label: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0)
    throw new TypeError(`toolhost: spillQuota.maxBytesPer${label} must be a non-negative integer`);
  return value;
}
