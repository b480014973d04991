import type { ConfirmActionHook } from '@toolhost/core';
import { ApprovalCache } from '../approval/approval-cache.js';
import type { ApprovalPrompter } from '../approval/approval-prompter.js';
import { createConfirmHook } from '../approval/create-confirm-hook.js';
import type { ProtectedPathContext } from '../approval/is-protected-path.js';
import type { ApprovalMode } from '../config/config-schema.js';

/** What the served approval gate knows about one client session. */
export interface ServeConfirmOptions {
  readonly mode: ApprovalMode;
  /** Present when the client declared elicitation: a human can be asked. */
  readonly prompter?: ApprovalPrompter;
  readonly paths: ProtectedPathContext;
  /** One per client session, so `always` answers stick for that client only. */
  readonly cache: ApprovalCache;
}

/**
 * The approval policy of `toolhost serve`:
 * - `plan` refuses every governed action (read-only all the way down);
 * - `ask` asks the client's human through elicitation, and refuses when the client cannot ask;
 * - `accept-edits` and `auto` are the CLI's own hook, with elicitation as the human.
 */
export function createServeConfirm(options: ServeConfirmOptions): ConfirmActionHook {
  const { mode, prompter, paths, cache } = options;
  if (mode === 'plan') {
    return async () => ({ outcome: 'reject', reason: 'mode plan refuses governed actions' });
  }
  if (mode === 'ask' && prompter === undefined) {
    return async () => ({
      outcome: 'reject',
      reason:
        'mode ask needs an MCP client that supports elicitation to approve governed actions; ' +
        'restart toolhost serve with --mode auto to follow the configured policy instead',
    });
  }
  return createConfirmHook({
    // Under `ask` every governed action goes to the human: the CLI's prompting mode.
    mode: mode === 'ask' ? 'accept-edits' : mode,
    ...(prompter === undefined ? {} : { prompter }),
    nonInteractiveReason: 'the MCP client does not support elicitation',
    paths,
    cache,
  });
}

export { ApprovalCache };
