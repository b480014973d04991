import * as restate from '@restatedev/restate-sdk';
import type {
  ToolActionClass,
  ToolActionPreview,
  ToolApprovalDecision,
  ToolId,
} from '@toolhost/core';

import {
  DEFAULT_APPROVAL_TIMEOUT_MS,
  toApprovalDecision,
  type ApprovalNotice,
  type ToolRunApprovals,
} from './approval-notice.js';

/** The governed call a person is asked about. */
export interface ApprovalSubject {
  readonly runId: string;
  readonly toolCallId: string;
  readonly toolId: ToolId;
  readonly action: ToolActionClass;
  readonly preview: ToolActionPreview;
}

/**
 * Waits durably for a person's decision: an awakeable, a journaled notice carrying its id, then
 * the awakeable raced against a durable timer. The invocation suspends meanwhile — a wait of
 * days holds no worker — and a timeout is a refusal nobody made (`approval_timeout`). A cancellation rejects the wait with
 * Restate's `CancelledError`, which the caller turns into the tool's `cancelled`.
 */
export async function awaitApproval(
  ctx: restate.Context,
  subject: ApprovalSubject,
  approvals: ToolRunApprovals,
): Promise<ToolApprovalDecision> {
  const timeoutMs = approvals.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) {
    throw new restate.TerminalError('toolhost: approvals.timeoutMs must be a positive integer', {
      errorCode: 500,
    });
  }
  const { id, promise } = ctx.awakeable<unknown>();
  const startedAt = await ctx.date.now();
  const notice: ApprovalNotice = {
    approvalId: id,
    ...subject,
    expiresAt: new Date(startedAt + timeoutMs).toISOString(),
  };
  await ctx.run(`approval notice ${subject.toolCallId}`, async () => {
    await approvals.notify(notice);
  });
  try {
    return toApprovalDecision(await promise.orTimeout(timeoutMs));
  } catch (error) {
    if (error instanceof restate.TimeoutError) {
      // Nobody answered: the run reports `approval_timeout`, never a person's `user_rejected`.
      return { outcome: 'reject', reason: 'approval_timeout', refusal: 'timeout' };
    }
    throw error;
  }
}
