import type { ActionCommitOutcome } from '../dispatch-context.js';
import { ToolCancelledError, ToolExecutionError } from '../errors.js';
import type { GuardedCall } from './gate-governed.js';

/**
 * After step 6: tells the guard that allowed the call how its host call ended, then settles as
 * the host call did. A commit that throws cannot undo an effect that may have landed, so the call
 * ends fatally and is never retried (a retry would repeat the effect); cancel still wins.
 */
export function commitAction<T>(
  guarded: GuardedCall | undefined,
  hostCall: Promise<T>,
): Promise<T> {
  // No async frame when no guard listens: this sits on every dispatch's hot path.
  if (guarded?.guard.commit === undefined) return hostCall;
  return commitOutcome(guarded, hostCall);
}

async function commitOutcome<T>(guarded: GuardedCall, hostCall: Promise<T>): Promise<T> {
  let settled:
    { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };
  try {
    settled = { ok: true, value: await hostCall };
  } catch (error) {
    settled = { ok: false, error };
  }
  const outcome: ActionCommitOutcome = settled.ok
    ? 'succeeded'
    : settled.error instanceof ToolCancelledError
      ? 'cancelled'
      : 'failed';
  try {
    await guarded.guard.commit?.(guarded.request, outcome);
  } catch (error) {
    if (!settled.ok && outcome === 'cancelled') throw settled.error;
    throw new ToolExecutionError(guarded.request.toolId, 'guard_commit_failed', {
      cause: error,
      recoverable: false,
      retryable: false,
    });
  }
  if (settled.ok) return settled.value;
  throw settled.error;
}
