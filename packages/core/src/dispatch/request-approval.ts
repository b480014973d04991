import type { AbortSignalLike } from '../abort-signal-like.js';
import type {
  ToolActionClass,
  ToolApprovalContext,
  ToolApprovalDecision,
} from '../dispatch-context.js';
import {
  ToolCancelledError,
  ToolDeniedByUserError,
  ToolPolicyError,
  type ToolDeniedByUserReason,
} from '../errors.js';
import type { ToolId } from '../tool-def.js';
import { raceAbort, throwIfAborted } from './abort.js';
import type { ActionPreviews } from './action-preview.js';

/** What the approval step needs to know about one dispatch. */
export interface ApprovalInput {
  readonly toolId: ToolId;
  readonly action: ToolActionClass;
  readonly previews: ActionPreviews;
  readonly approval: ToolApprovalContext;
  readonly signal?: AbortSignalLike | undefined;
}

/**
 * Step 5b: the interactive consent gate for a governed dispatch. Fail-closed: no hook, a hook
 * that throws or an unreadable decision all deny; an abort while asking cancels, and an approve
 * that arrives after the abort never lets the call run.
 */
export async function requestApproval(input: ApprovalInput): Promise<void> {
  const { toolId, action, approval, signal } = input;
  const { preview, unredactedPreview } = input.previews;
  throwIfAborted(signal, toolId);
  try {
    approval.emitApprovalRequested?.({ toolId, action, preview });
  } catch (error) {
    throw new ToolDeniedByUserError(toolId, 'approval_error', { cause: error });
  }
  const confirm = approval.confirm;
  if (confirm === undefined) throw new ToolDeniedByUserError(toolId, 'no_approval_hook');
  let decision: ToolApprovalDecision;
  try {
    decision = await raceAbort(
      Promise.resolve().then(() => confirm({ toolId, action, preview, unredactedPreview }, signal)),
      signal,
      toolId,
    );
  } catch (error) {
    if (error instanceof ToolCancelledError) throw error;
    throwIfAborted(signal, toolId);
    throw new ToolDeniedByUserError(toolId, 'approval_error', { cause: error });
  }
  throwIfAborted(signal, toolId);
  if (decision?.outcome === 'approve') return;
  if (decision?.outcome === 'reject') {
    const { reason, refusal } = decision;
    if (refusal === 'scope_escape') throw new ToolPolicyError(toolId, 'scope_escape');
    // A refusal no person made is the policy's: the audit log and the client must not read it
    // as a human's "no". No label is a person's refusal; a label we do not know is unreadable.
    const denied = refusal === undefined ? 'user_rejected' : NOBODY_DECIDED.get(refusal);
    throw new ToolDeniedByUserError(
      toolId,
      denied ?? 'approval_error',
      typeof reason === 'string' && denied !== undefined ? { userReason: reason } : {},
    );
  }
  throw new ToolDeniedByUserError(toolId, 'approval_error');
}

// A Map, so a refusal label named `constructor` or `__proto__` maps to nothing.
const NOBODY_DECIDED = new Map<string, ToolDeniedByUserReason>([
  ['unasked', 'no_approval_hook'],
  ['timeout', 'approval_timeout'],
  ['withdrawn', 'approval_withdrawn'],
]);
