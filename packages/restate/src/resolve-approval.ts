import type { ToolApprovalDecision } from '@toolhost/core';

/**
 * What can answer an awakeable: the Restate ingress client
 * (`connect({ url })` from `@restatedev/restate-sdk-clients`) and a handler's own context both
 * have this shape, so an approval is resolved from a script, a web service or another handler.
 */
export interface AwakeableResolver {
  resolveAwakeable<T>(id: string, payload?: T): void | Promise<void>;
}

/**
 * Answers a pending approval by the `approvalId` its notice carried. `reason` on a rejection is
 * a short display label (it reaches the denial as `userReason`, never its message).
 */
export async function resolveApproval(
  resolver: AwakeableResolver,
  approvalId: string,
  decision: ToolApprovalDecision,
): Promise<void> {
  if (typeof approvalId !== 'string' || approvalId === '') {
    throw new TypeError('toolhost: resolveApproval needs the approvalId of a notice');
  }
  const payload =
    decision.outcome === 'approve'
      ? { outcome: 'approve' }
      : decision.reason === undefined
        ? { outcome: 'reject' }
        : { outcome: 'reject', reason: decision.reason };
  await resolver.resolveAwakeable(approvalId, payload);
}
