import type { AbortSignalLike } from '../abort-signal-like.js';
import { ToolCancelledError } from '../errors.js';
import type { ToolId } from '../tool-def.js';

/** Throws the cancellation error when the signal has fired: cancel beats every other outcome. */
export function throwIfAborted(signal: AbortSignalLike | undefined, toolId: ToolId): void {
  if (signal?.aborted === true) throw new ToolCancelledError(toolId, { cause: signal.reason });
}

/**
 * Settles with `promise`, or rejects with `ToolCancelledError` as soon as the signal fires. The
 * loser's later rejection is observed so it never surfaces as an unhandled rejection.
 */
export function raceAbort<T>(
  promise: Promise<T>,
  signal: AbortSignalLike | undefined,
  toolId: ToolId,
): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new ToolCancelledError(toolId, { cause: signal.reason }));
    if (signal.aborted) {
      onAbort();
      promise.catch(() => undefined);
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
