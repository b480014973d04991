import type { ToolActionClass, ToolActionPreview } from '@toolhost/core';
import type { ApprovalDecider } from '../approval/approval-decided-by.js';

/** A spill as the page sees it: an opaque id within its session, never the host path. */
export interface UiSpill {
  readonly id: string;
  readonly byteLength: number;
}

/**
 * One step of one tool call, as the page shows it. Every field is secret-free: a tool's input and
 * output only ever arrive as the engine's redacted projections (`outcome.events`) or the approval
 * request's redacted preview, never as raw arguments or results.
 */
export type UiEvent = UiEventHead &
  (
    | { readonly step: 'called' }
    | {
        readonly step: 'approval_requested';
        readonly action: ToolActionClass;
        readonly preview: ToolActionPreview;
      }
    | {
        readonly step: 'approval_decided';
        readonly outcome: 'approved' | 'denied';
        /** `unasked`, `scope_escape`, or absent: a person decided. */
        readonly refusal?: string;
        readonly reason?: string;
        /** Who settled it: the page, the client's elicitation, the terminal, a timeout, policy … */
        readonly by?: ApprovalDecider;
      }
    | {
        readonly step: 'result';
        readonly success: boolean;
        /** The engine's `tool_call` projection, when the call got far enough to have one. */
        readonly toolInput?: unknown;
        readonly outputSummary: string;
        readonly durationMs: number;
        /** UTF-8 bytes of the bounded, model-facing result. */
        readonly resultBytes?: number;
        readonly truncated?: boolean;
        readonly spill?: UiSpill;
        readonly errorCode?: string;
        readonly reason?: string;
      }
  );

/** What every event carries: where it belongs and when it happened. */
export interface UiEventHead {
  /** Increasing per hub: the SSE event id, so a reconnecting page resumes after the last seen. */
  readonly seq: number;
  /** Epoch ms. */
  readonly at: number;
  /** The served client session (its run id), or the audit log's run id. */
  readonly sessionId: string;
  /** Ties the steps of one call together (unique within the hub). */
  readonly callId: string;
  readonly toolId: string;
}

/** An event before the hub numbers and stamps it. */
export type UiEventInput = DistributiveOmit<UiEvent, 'seq' | 'at'> & { readonly at?: number };

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
