import type { Span } from '@opentelemetry/api';
import type { ConfirmActionHook, ToolApprovalDecision } from '@toolhost/core';
import type { ToolApprovalContext } from '@toolhost/core/policy';

/** How an approval hook answered, as the `toolhost.approval.decided` event reports it. */
export type ApprovalEventOutcome = 'approve' | 'reject' | 'invalid' | 'error';

/**
 * The caller's approval context with both hooks observed: `emitApprovalRequested` and `confirm`
 * keep their behaviour (a throw still denies in core) and add a span event each. Only the
 * action class is recorded: the preview is argument data, and `unredactedPreview` is never read.
 */
export function traceApproval(approval: ToolApprovalContext, span: Span): ToolApprovalContext {
  const { confirm, emitApprovalRequested } = approval;
  return {
    ...approval,
    emitApprovalRequested: (event) => {
      span.addEvent('toolhost.approval.requested', { 'toolhost.approval.action': event.action });
      emitApprovalRequested?.(event);
    },
    // Absent stays absent: core then refuses with `no_approval_hook`, which the error reports.
    ...(confirm === undefined ? {} : { confirm: observeConfirm(confirm, span) }),
  };
}

function observeConfirm(confirm: ConfirmActionHook, span: Span): ConfirmActionHook {
  return async (request, signal) => {
    let decision: ToolApprovalDecision;
    try {
      decision = await confirm(request, signal);
    } catch (error) {
      span.addEvent('toolhost.approval.decided', { 'toolhost.approval.outcome': 'error' });
      throw error;
    }
    span.addEvent('toolhost.approval.decided', {
      'toolhost.approval.outcome': outcomeOf(decision),
    });
    return decision;
  };
}

// Read as core reads it; anything else is what core denies as `approval_error`.
function outcomeOf(decision: unknown): ApprovalEventOutcome {
  try {
    const outcome: unknown = (decision as { outcome?: unknown } | null | undefined)?.outcome;
    return outcome === 'approve' || outcome === 'reject' ? outcome : 'invalid';
  } catch {
    return 'invalid';
  }
}
