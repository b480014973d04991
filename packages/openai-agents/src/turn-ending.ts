// Errors thrown to end the run's turn, so no SDK fallback turns them into text for the model.
const turnEnding = new WeakSet<object>();

/** Marks `error` as ending the run; returns it for `throw`. */
export function markTurnEnding<T>(error: T): T {
  if (typeof error === 'object' && error !== null) turnEnding.add(error);
  return error;
}

/** Whether toolhost threw `error` to end the run. */
export function isTurnEnding(error: unknown): boolean {
  return typeof error === 'object' && error !== null && turnEnding.has(error);
}

/** The typed toolhost error inside a rejected `run()`, or the error itself. */
export function toolhostRunError(error: unknown): unknown {
  if (
    typeof error === 'object' &&
    error !== null &&
    'error' in error &&
    isTurnEnding(error.error)
  ) {
    return error.error;
  }
  return error;
}
