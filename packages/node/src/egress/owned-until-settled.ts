import type { AbortSource } from './call-signal.js';

/**
 * Settles with `promise`; once the signal aborts, with the signal's reason instead — but only
 * after `promise` itself settled. Work that cannot be cancelled (a DNS query, a credential
 * lookup, a media write) is still the call's until it ends: a cancelled call that settled early
 * would tell the runner (its `retainWork`, the spec's "owed until the actual Promise settles")
 * that nothing of it runs any more while it still did.
 */
export function ownedUntilSettled<T>(
  promise: Promise<T>,
  signal: AbortSource | undefined,
): Promise<T> {
  if (signal === undefined) return promise;
  return promise.then(
    (value) => {
      if (signal.aborted) throw signal.reason as Error;
      return value;
    },
    (error: unknown) => {
      throw (signal.aborted ? signal.reason : error) as Error;
    },
  );
}
