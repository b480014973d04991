import type {
  ToolActionClass,
  ToolActionPreview,
  ToolApprovalDecision,
  ToolId,
} from '@toolhost/core';

/**
 * What the embedder is told when a governed call waits for a person: the awakeable's id (the
 * handle `resolveApproval` answers) and the scrubbed, secret-free preview — never the arguments.
 * A write's preview holds its scrubbed start (at most 4 KiB): the person deciding must see what
 * is written, and the journaled notice keeps no more than the scrubbed, bounded form.
 */
export interface ApprovalNotice {
  readonly approvalId: string;
  readonly runId: string;
  readonly toolCallId: string;
  readonly toolId: ToolId;
  readonly action: ToolActionClass;
  readonly preview: ToolActionPreview;
  /** When the wait ends in a rejection if nobody answered (ISO 8601). */
  readonly expiresAt: string;
}

/** Approvals as awakeables: who is told, and how long a call may wait. */
export interface ToolRunApprovals {
  /**
   * Delivers a notice (a log line, a webhook, a queue, the CLI). Runs as a durable step, retried
   * until it succeeds: at least once — a worker that dies after sending but before the step is
   * recorded sends it again on replay, with the same `approvalId` (answering twice is harmless).
   */
  readonly notify: (notice: ApprovalNotice) => void | Promise<void>;
  /** How long a call waits for a decision before it is rejected; default 24 hours. */
  readonly timeoutMs?: number;
}

/** The default wait: a person answers within a day, or the call is rejected. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 24 * 60 * 60 * 1000;

const MAX_REASON_LENGTH = 120;

/**
 * The decision a resolver sent, as the engine's `ToolApprovalDecision`. Anything that is not
 * exactly an approval is a rejection (unknown means deny), and the reason is cut to a short
 * printable label: it is display text from outside, never trusted.
 */
export function toApprovalDecision(payload: unknown): ToolApprovalDecision {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    return { outcome: 'reject', reason: 'approval_invalid' };
  }
  const { outcome, reason } = payload as { readonly outcome?: unknown; readonly reason?: unknown };
  if (outcome === 'approve') return { outcome: 'approve' };
  if (outcome !== 'reject') return { outcome: 'reject', reason: 'approval_invalid' };
  const label = typeof reason === 'string' ? printableLabel(reason) : '';
  return label === '' ? { outcome: 'reject' } : { outcome: 'reject', reason: label };
}

// Control and format characters out (no terminal escapes, no bidi tricks), whitespace folded.
function printableLabel(text: string): string {
  return text
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_REASON_LENGTH);
}
