import { createCallLimiter, type CallLimiter, type ReleaseSlot } from './call-limiter.js';

/**
 * How many `tools/call`s `serve` runs at once. Without a cap, 200 concurrent 8 MiB reads from
 * one client reached 4.9 GiB RSS; with it, calls past the cap wait, and past the queue are
 * refused as busy.
 */
export interface ServeCallLimits {
  /** Calls one client session runs at once (default 8). */
  readonly maxCallsPerSession?: number;
  /** Calls all sessions of one server run at once (default 16). */
  readonly maxCallsInFlight?: number;
  /** Calls that may wait for a slot, in each session and in the server's queue (default 32). */
  readonly maxWaitingCalls?: number;
}

export const DEFAULT_MAX_CALLS_PER_SESSION = 8;
export const DEFAULT_MAX_CALLS_IN_FLIGHT = 16;
export const DEFAULT_MAX_WAITING_CALLS = 32;

/** One server's gates: the global one, shared, and a fresh one per client session. */
export interface ServeGates {
  readonly global: CallLimiter;
  forSession(): CallLimiter;
}

/** Checks the limits and builds the server's gates; a bad limit fails at start, not per call. */
export function createServeGates(limits: ServeCallLimits = {}): ServeGates {
  const maxWaiting = limits.maxWaitingCalls ?? DEFAULT_MAX_WAITING_CALLS;
  const perSession = {
    maxInFlight: limits.maxCallsPerSession ?? DEFAULT_MAX_CALLS_PER_SESSION,
    maxWaiting,
  };
  createCallLimiter(perSession);
  const global = createCallLimiter({
    maxInFlight: limits.maxCallsInFlight ?? DEFAULT_MAX_CALLS_IN_FLIGHT,
    maxWaiting,
  });
  return { global, forSession: () => createCallLimiter(perSession) };
}

/**
 * Takes a session slot, then a global one (a call never holds the global slot while it waits
 * for its own session). `undefined`: a queue is full, nothing is held.
 */
export async function admitCall(
  session: CallLimiter,
  global: CallLimiter,
  signal: AbortSignal,
): Promise<ReleaseSlot | undefined> {
  const own = await session.acquire(signal);
  if (own === undefined) return undefined;
  let shared: ReleaseSlot | undefined;
  try {
    shared = await global.acquire(signal);
  } catch (error) {
    own();
    throw error;
  }
  if (shared === undefined) {
    own();
    return undefined;
  }
  const taken = shared;
  return () => {
    taken();
    own();
  };
}
