import type { AbortSignalLike } from '../abort-signal-like.js';
import type {
  ToolActionClass,
  ToolActionPreview,
  ToolApprovalContext,
  ToolApprovalDecision,
} from '../dispatch-context.js';
import { ToolCancelledError, ToolDeniedByUserError } from '../errors.js';
import { normalizeHost } from '../policy/normalize-host.js';
import { parseUrl } from '../policy/parse-url.js';
import { redactSecretShapedText } from '../redact/redact-secret-shaped-text.js';
import type { PolicyTarget, ToolId } from '../tool-def.js';
import { raceAbort, throwIfAborted } from './abort.js';

/** What the approval step needs to know about one dispatch. */
export interface ApprovalInput {
  readonly toolId: ToolId;
  readonly action: ToolActionClass;
  readonly target: PolicyTarget | undefined;
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
  const unredactedPreview = previewOf(action, input.target);
  const preview = scrub(unredactedPreview);
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
    const { reason } = decision;
    throw new ToolDeniedByUserError(
      toolId,
      'user_rejected',
      typeof reason === 'string' ? { userReason: reason } : {},
    );
  }
  throw new ToolDeniedByUserError(toolId, 'approval_error');
}

// The selection the approver sees: the path, the command, or the host only, since a URL's
// path and query are where credentials live.
function previewOf(action: ToolActionClass, target: PolicyTarget | undefined): ToolActionPreview {
  if (target === undefined) return {};
  switch (action) {
    case 'fs_write':
      return target.path === undefined ? {} : { path: target.path };
    case 'process':
      return target.command === undefined ? {} : { command: target.command };
    case 'egress': {
      const hostname = target.url === undefined ? undefined : parseUrl(target.url)?.hostname;
      const host = hostname === undefined ? undefined : normalizeHost(hostname);
      return host === undefined ? {} : { host };
    }
    case 'os':
      return {};
  }
}

function scrub(preview: ToolActionPreview): ToolActionPreview {
  const scrubbed: { path?: string; command?: string; host?: string } = {};
  if (preview.path !== undefined) scrubbed.path = redactSecretShapedText(preview.path);
  if (preview.command !== undefined) scrubbed.command = redactSecretShapedText(preview.command);
  if (preview.host !== undefined) scrubbed.host = redactSecretShapedText(preview.host);
  return Object.freeze(scrubbed);
}
