import type { ActionGuard, ActionGuardDecision, ActionGuardRequest } from '../dispatch-context.js';
import type { AbortSignalLike } from '../abort-signal-like.js';
import { ToolCancelledError, ToolPolicyError } from '../errors.js';
import { raceAbort, throwIfAborted } from './abort.js';

/**
 * Step 5a: the org governor's verdict on a governed dispatch, after the policy checks and before
 * any human is asked. Fail-closed: a deny, a throw or an unreadable verdict is `governed_block`;
 * an abort while deciding cancels, and an allow that arrives after the abort never runs the call.
 */
export async function consultActionGuard(
  guard: ActionGuard,
  request: ActionGuardRequest,
  signal: AbortSignalLike | undefined,
): Promise<void> {
  const { toolId } = request;
  throwIfAborted(signal, toolId);
  let decision: ActionGuardDecision;
  try {
    decision = await raceAbort(
      Promise.resolve().then(() => guard.decide(request, signal)),
      signal,
      toolId,
    );
  } catch (error) {
    if (error instanceof ToolCancelledError) throw error;
    throwIfAborted(signal, toolId);
    throw new ToolPolicyError(toolId, 'governed_block', { cause: error });
  }
  throwIfAborted(signal, toolId);
  if (decision?.outcome === 'allow') return;
  const reason = decision?.outcome === 'deny' ? decision.reason : undefined;
  throw new ToolPolicyError(
    toolId,
    'governed_block',
    typeof reason === 'string' ? { guardReason: reason } : {},
  );
}
