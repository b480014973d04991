import type { AbortSource } from './call-signal.js';

/**
 * Settles with `promise`, or rejects with the signal's reason as soon as it aborts: an await on
 * work that cannot itself be cancelled (a DNS query) must still not outlive the caller's abort.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSource | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    const stop = listen(signal, onAbort);
    promise.then(
      (value) => {
        stop();
        resolve(value);
      },
      (error: unknown) => {
        stop();
        reject(error as Error);
      },
    );
  });
}

function listen(signal: AbortSource, onAbort: () => void): () => void {
  if ('addEventListener' in signal) {
    signal.addEventListener('abort', onAbort, { once: true });
    return () => signal.removeEventListener('abort', onAbort);
  }
  signal.once('abort', onAbort);
  return () => signal.off('abort', onAbort);
}
