import { ToolDispatchError } from './tool-dispatch-error.js';
import type { ToolId } from './tool-def.js';

/**
 * Why the durable effect bracket failed a journaled call. Each is fatal and never retried:
 * - `effect_unresolved`: a claim was prepared and never settled (a crash, an abort or a host
 *   failure mid-effect): the effect may have happened, so it is never run again; an operator
 *   settles or discards the claim.
 * - `journal_identity_mismatch`: the run already holds this call under another tool or other
 *   effective arguments.
 * - `journal_unavailable`: the store failed before any effect, the runtime has no WebCrypto
 *   digest, or the journal or the call id is unusable (fail closed: nothing ran).
 * - `journal_args_unencodable`: the effective arguments have no canonical JSON encoding (a cycle,
 *   a class instance, a bigint), so no identity can be computed; nothing ran.
 * - `journal_record_invalid`: the settled record cannot be read back; nothing ran.
 * - `journal_media_refused`: the tool answered with a media attachment, which a JSON replay could
 *   not deliver; the effect ran, so its claim is kept (unresolved).
 */
export type EffectJournalErrorReason =
  | 'effect_unresolved'
  | 'journal_identity_mismatch'
  | 'journal_unavailable'
  | 'journal_args_unencodable'
  | 'journal_record_invalid'
  | 'journal_media_refused';

/** The durable effect bracket refused a journaled call; `reason` says why. Fatal, never retried. */
export class EffectJournalError extends ToolDispatchError {
  readonly code = 'tool_failed';
  readonly runErrorCode = 'tool_failed';
  override readonly name = 'EffectJournalError';
  override readonly toolId: ToolId;

  constructor(
    toolId: ToolId,
    readonly reason: EffectJournalErrorReason,
    options: { readonly cause?: unknown } = {},
  ) {
    super(`tool ${toolId} failed: ${reason}`, toolId, options.cause);
    this.toolId = toolId;
  }
}
