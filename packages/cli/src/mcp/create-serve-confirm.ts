import path from 'node:path';
import type { ConfirmActionHook, ToolApprovalDecision, ToolApprovalRequest } from '@toolhost/core';
import type { FsScopeTier } from '@toolhost/core/policy';
import { ApprovalCache } from '../approval/approval-cache.js';
import { markDecidedBy } from '../approval/approval-decided-by.js';
import type { ApprovalPrompter } from '../approval/approval-prompter.js';
import { createConfirmHook } from '../approval/create-confirm-hook.js';
import type { ProtectedPathContext } from '../approval/is-protected-path.js';
import type { ApprovalMode } from '../config/config-schema.js';
import { ApprovalUnansweredError } from '../ui/approval-broker.js';

/** What the served approval gate knows about one call of one client session. */
export interface ServeConfirmOptions {
  readonly mode: ApprovalMode;
  /** Present when a human can be asked: the client's elicitation, the control tower's page, or both. */
  readonly prompter?: ApprovalPrompter;
  readonly paths: ProtectedPathContext;
  /** One per client session, so `always` answers stick for that client only. */
  readonly cache: ApprovalCache;
  /** The call's fs tier: a write out of the `sandboxed` root is refused before anyone is asked. */
  readonly fsScope?: FsScopeTier;
}

/** The approval gate of one served call, and what its refusals really were. */
export interface ServeConfirm {
  /**
   * Labels the refusals it makes without a person (`refusal`): a write the jail would refuse
   * anyway is `scope_escape`, a refusal nobody was asked for `no_approval_hook`, one nobody
   * answered `approval_timeout` / `approval_withdrawn` — in the error the client gets and in the
   * audit log alike.
   */
  readonly confirm: ConfirmActionHook;
}

const NO_ELICITATION = 'the MCP client does not support elicitation';

/**
 * The approval policy of `toolhost serve`:
 * - a write out of the `sandboxed` root is refused unasked, as the jail would refuse it;
 * - `plan` refuses every governed action (read-only all the way down);
 * - `ask` asks the client's human through elicitation (or the control tower's page), and refuses
 *   when nobody can be asked;
 * - `accept-edits` and `auto` are the CLI's own hook, with elicitation or the page as the human;
 * - an approval nobody answered is refused as nobody's decision: the page's timeout as
 *   `approval_timeout`, a caller that left or the tower closing as `approval_withdrawn`.
 */
export function createServeConfirm(options: ServeConfirmOptions): ServeConfirm {
  const { mode, prompter, paths } = options;
  const gate = chooseGate(options);
  // Without a human every rejection is the policy's, never a person's.
  const unasked = mode === 'plan' || prompter === undefined;
  const confirm: ConfirmActionHook = async (request, signal) => {
    if (escapesSandboxedRoot(request, paths.root, options.fsScope)) {
      return {
        outcome: 'reject',
        reason: 'the path is outside the filesystem tier',
        refusal: 'scope_escape',
      };
    }
    let decision: ToolApprovalDecision;
    try {
      decision = await gate(request, signal);
    } catch (error) {
      // No person answered: a refusal nobody made (`approval_timeout`, `approval_withdrawn`),
      // never a human's "no".
      if (!(error instanceof ApprovalUnansweredError)) throw error;
      const refusal = error.reason === 'timeout' ? 'timeout' : 'withdrawn';
      return markDecidedBy({ outcome: 'reject', reason: error.message, refusal }, refusal);
    }
    if (decision.outcome === 'reject' && unasked) return { ...decision, refusal: 'unasked' };
    return decision;
  };
  return { confirm };
}

function chooseGate(options: ServeConfirmOptions): ConfirmActionHook {
  const { mode, prompter, paths, cache } = options;
  if (mode === 'plan') {
    return async () => ({
      outcome: 'reject',
      reason: 'mode plan refuses governed actions',
      refusal: 'unasked',
    });
  }
  if (mode === 'ask' && prompter === undefined) {
    return async () => ({
      outcome: 'reject',
      refusal: 'unasked',
      reason: `mode ask needs an MCP client that supports elicitation to approve governed actions; restart toolhost serve with --mode auto to follow the configured policy instead`,
    });
  }
  return createConfirmHook({
    // Under `ask` every governed action goes to the human: the CLI's prompting mode.
    mode: mode === 'ask' ? 'accept-edits' : mode,
    ...(prompter === undefined ? {} : { prompter }),
    nonInteractiveReason: NO_ELICITATION,
    paths,
    cache,
    withoutHumanHints: {
      protectedPath:
        'a protected path always needs a human: connect a client that supports elicitation',
      other:
        'connect a client that supports elicitation to be asked, or restart toolhost serve with --mode auto',
    },
  });
}

// The jail's own first test, on the same spelling: resolved against the root, a write in the
// `sandboxed` tier has one writable root. `project` and `full` are left to the jail.
function escapesSandboxedRoot(
  request: ToolApprovalRequest,
  root: string,
  fsScope: FsScopeTier | undefined,
): boolean {
  const requested = request.unredactedPreview?.path;
  if (request.action !== 'fs_write' || fsScope !== 'sandboxed' || requested === undefined) {
    return false;
  }
  const relative = path.relative(root, path.resolve(root, requested));
  return relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
}

export { ApprovalCache };
