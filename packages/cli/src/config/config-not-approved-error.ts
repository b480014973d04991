import { CliUsageError } from '../cli-error.js';
import type { ConfigApprovalStatus, ConfigApprovalSubject } from './config-approval.js';

/** The workspace config as it was read and refused: what a human may review and approve. */
export interface PendingConfigApproval extends ConfigApprovalSubject {
  /** The exact text that was hashed; shown for review, never put in a message. */
  readonly text: string;
}

/**
 * A workspace config whose bytes are not the approved ones: nothing it names (MCP server
 * commands, allowlists, the sandbox mode) is used. A usage error, so nothing ran (exit 2).
 */
export class ConfigNotApprovedError extends CliUsageError {
  constructor(
    readonly status: Exclude<ConfigApprovalStatus, 'approved'>,
    readonly pending: PendingConfigApproval,
    /** The config's file name (never its path). */
    label: string,
  ) {
    super(
      `${label} ${status === 'changed' ? 'changed since it was approved' : 'is not approved'}; ` +
        'review it, then run `toolhost config approve` (same --root and --state-dir), ' +
        'or pass it with --config <file>',
    );
  }
}
