/** How many calls run at once, and how many may wait for a slot. */
export interface CallLimiterOptions {
  readonly maxInFlight: number;
  readonly maxWaiting: number;
}

/** A slot: call `release` once the call's work has really ended. */
export type ReleaseSlot = () => void;

/** A counting gate for tool calls: FIFO, bounded queue, abort-aware. */
export interface CallLimiter {
  /**
   * Resolves with a slot once one is free; `undefined` at once when the queue is full (the
   * caller refuses the call as busy). Rejects with the signal's reason if it aborts while
   * waiting, and then holds nothing.
   */
  acquire(signal?: AbortSignal): Promise<ReleaseSlot | undefined>;
  /** Calls running now (for tests and the operator). */
  readonly inFlight: number;
}

/** Creates a gate; a limit that is not a positive integer (or a negative queue) fails here. */
export function createCallLimiter({ maxInFlight, maxWaiting }: CallLimiterOptions): CallLimiter {
  if (!Number.isSafeInteger(maxInFlight) || maxInFlight < 1)
    throw new TypeError('toolhost: a call limit must be a positive integer');
  if (!Number.isSafeInteger(maxWaiting) || maxWaiting < 0)
    throw new TypeError('toolhost: a waiting-call limit must be a non-negative integer');
  let running = 0;
  const waiting: Array<() => void> = [];

  const slot = (): ReleaseSlot => {
    running += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      running -= 1;
      // Hand the slot straight to the oldest waiter: a newcomer never overtakes the queue.
      waiting.shift()?.();
    };
  };

  return {
    get inFlight() {
      return running;
    },
    acquire(signal) {
      if (signal?.aborted === true) return Promise.reject(abortReason(signal));
      if (running < maxInFlight && waiting.length === 0) return Promise.resolve(slot());
      if (waiting.length >= maxWaiting) return Promise.resolve(undefined);
      return new Promise<ReleaseSlot>((resolve, reject) => {
        const wake = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(slot());
        };
        const onAbort = () => {
          const index = waiting.indexOf(wake);
          if (index !== -1) waiting.splice(index, 1);
          reject(abortReason(signal));
        };
        waiting.push(wake);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}

function abortReason(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new Error('aborted');
}
