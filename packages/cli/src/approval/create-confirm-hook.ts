import type { ConfirmActionHook, ToolApprovalDecision, ToolApprovalRequest } from '@toolhost/core';
import type { ApprovalMode } from '../config/config-schema.js';
import { markDecidedBy } from './approval-decided-by.js';
import { ApprovalCache } from './approval-cache.js';
import type { ApprovalPrompter } from './approval-prompter.js';
import { isProtectedPath, type ProtectedPathContext } from './is-protected-path.js';

/** How the host-side approval behaves for this session. */
export interface ConfirmHookOptions {
  readonly mode: ApprovalMode;
  /** Absent ⇒ non-interactive: anything that needs a human is refused, never auto-approved. */
  readonly prompter?: ApprovalPrompter;
  /** Why there is no prompter (no TTY, `--json`, CI); goes into the refusal message. */
  readonly nonInteractiveReason?: string;
  readonly paths: ProtectedPathContext;
  /** Shared across calls of one session so `always` answers stick. */
  readonly cache?: ApprovalCache;
  /** How to allow an action without a human, in this surface's words (default: the terminal's). */
  readonly withoutHumanHints?: { readonly protectedPath: string; readonly other: string };
}

/**
 * The CLI's `ConfirmActionHook`: `ask`/`plan` refuse governed actions, `accept-edits` asks a human,
 * `auto` approves except protected paths (which ask). Without a human it refuses with a message
 * saying how to allow the action; it never hangs and never approves by default.
 */
export function createConfirmHook(options: ConfirmHookOptions): ConfirmActionHook {
  const { mode, prompter, paths } = options;
  const cache = options.cache ?? new ApprovalCache();
  return async (request, signal) => {
    if (mode === 'ask' || mode === 'plan') {
      return refuseUnasked(
        `mode ${mode} refuses governed actions; allow with --mode accept-edits (asks you) or --mode auto`,
      );
    }
    // Classify on the unredacted selection: the scrub can hide a protected path.
    const target = request.unredactedPreview ?? request.preview;
    // A move writes both ends: either one protected makes the call protected.
    const protectedTarget =
      request.action === 'fs_write' &&
      (isProtectedPath(target.path ?? '', paths) ||
        (target.destination !== undefined && isProtectedPath(target.destination, paths)));
    if (mode === 'auto' && !protectedTarget) return APPROVE;
    if (cache.allows(request.toolId, request.action, target, protectedTarget)) return APPROVE;
    if (prompter === undefined) return refuseUnasked(refusalWithoutHuman(request, mode, options));
    const answer = await prompter.ask(
      {
        toolId: request.toolId,
        action: request.action,
        preview: request.preview,
        ...(protectedTarget ? { note: 'protected path: always asks' } : {}),
      },
      signal,
    );
    // A person answered: the audit log names where (the page, the client, the terminal).
    const by = answer.by ?? 'terminal';
    switch (answer.choice) {
      case 'once':
        return markDecidedBy({ outcome: 'approve' }, by);
      case 'always_target':
        cache.allowTarget(request.toolId, request.action, target);
        return markDecidedBy({ outcome: 'approve' }, by);
      case 'always_tool':
        cache.allowTool(request.toolId);
        return markDecidedBy({ outcome: 'approve' }, by);
      case 'no':
        return markDecidedBy(
          reject(answer.reason === undefined ? 'rejected by the user' : answer.reason),
          by,
        );
    }
  };
}

const APPROVE: ToolApprovalDecision = Object.freeze({ outcome: 'approve' });

function reject(reason: string): ToolApprovalDecision {
  return { outcome: 'reject', reason };
}

// No person was asked: the refusal is the mode's, reported as `no_approval_hook`.
function refuseUnasked(reason: string): ToolApprovalDecision {
  return { outcome: 'reject', reason, refusal: 'unasked' };
}

const TERMINAL_HINTS = {
  protectedPath: 'a protected path always needs a human: run it in a terminal without --json',
  other: 'run it in a terminal without --json to be asked, or use --mode auto',
};

function refusalWithoutHuman(
  request: ToolApprovalRequest,
  mode: ApprovalMode,
  options: ConfirmHookOptions,
): string {
  const why = options.nonInteractiveReason ?? 'no terminal to ask';
  const hints = options.withoutHumanHints ?? TERMINAL_HINTS;
  const hint = mode === 'auto' ? hints.protectedPath : hints.other;
  return `${request.toolId} (${request.action}) needs approval but ${why}; ${hint}`;
}
