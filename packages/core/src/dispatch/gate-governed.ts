import type { ActionGuard, ActionGuardRequest, ToolDispatchContext } from '../dispatch-context.js';
import { previewAction } from './action-preview.js';
import { consultActionGuard } from './consult-action-guard.js';
import { requestApproval } from './request-approval.js';
import type { ScreenedCall } from './screen-call.js';

/** The guard that allowed a governed call, with what it was asked: `commit` records the outcome. */
export interface GuardedCall {
  readonly guard: ActionGuard;
  readonly request: ActionGuardRequest;
}

/**
 * Steps 5a–5b for a governed call: the org governor, then the user's `confirm`. Each can only
 * further restrict; the guard binds the workflow path (no `ctx.approval`) too, and goes first so
 * a call the organisation refuses is never put to a human.
 */
export async function gateGoverned(
  { tool, target, action }: ScreenedCall,
  ctx: ToolDispatchContext,
): Promise<GuardedCall | undefined> {
  const { actionGuard: guard, approval, signal } = ctx;
  if (action === undefined || (guard === undefined && approval === undefined)) return undefined;
  const toolId = tool.def.id;
  const previews = previewAction(action, target);
  let guarded: GuardedCall | undefined;
  if (guard !== undefined) {
    const request = Object.freeze({
      toolId,
      nodeId: ctx.nodeId,
      action,
      preview: previews.preview,
    });
    await consultActionGuard(guard, request, signal);
    guarded = { guard, request };
  }
  if (approval !== undefined) await requestApproval({ toolId, action, previews, approval, signal });
  return guarded;
}
