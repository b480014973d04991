import type { ToolHostArm } from '../tool-host-arm.js';

/** Why an adapter refused its options at construction. */
export type AdapterOptionsErrorReason =
  | 'grant_required'
  | 'grant_not_registered'
  | 'config_not_granted'
  | 'max_corrections_invalid'
  | 'journal_invalid'
  | 'host_arm_missing';

// Fixed templates: the id named is the embedder's own option, never a model's or a value.
const MESSAGES: Record<AdapterOptionsErrorReason, string> = {
  grant_required:
    'grantedToolIds is required: list the tools this agent may call (registering a tool grants nothing)',
  grant_not_registered: 'a granted tool is not registered',
  config_not_granted: 'toolConfig names a tool that is not granted',
  max_corrections_invalid: 'maxCorrections must be a non-negative integer',
  host_arm_missing: 'a granted tool needs a host arm this host does not have',
  journal_invalid:
    'journal needs a store (lookup, prepare, settle, discard), a non-empty runId and, if set, a positive integer maxRecordBytes',
};

/**
 * An adapter's options are missing or inconsistent; thrown when the adapter is built, never on
 * first use. A `TypeError`, so callers that caught the old untyped refusal still do.
 */
export class AdapterOptionsError extends TypeError {
  readonly code = 'adapter_options_invalid';
  override readonly name = 'AdapterOptionsError';

  constructor(
    readonly reason: AdapterOptionsErrorReason,
    /** The tool id the refusal is about, when it is about one. */
    readonly toolId?: string,
    /** The missing arm, for `host_arm_missing` (pass `process: {}` to `createNodeToolHost`…). */
    readonly arm?: ToolHostArm,
  ) {
    const about =
      toolId === undefined ? '' : ` (${toolId}${arm === undefined ? '' : ` needs ${arm}`})`;
    super(`toolhost: ${MESSAGES[reason]}${about}`);
  }
}
