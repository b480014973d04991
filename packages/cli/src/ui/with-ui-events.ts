import { randomUUID } from 'node:crypto';
import {
  classifyToolError,
  ToolDispatchError,
  unwrapUntrusted,
  type ConfirmActionHook,
  type ToolActionClass,
  type ToolActionPreview,
  type ToolDispatchContext,
  type ToolDispatchOutcome,
  type ToolRegistry,
} from '@toolhost/core';
import { projectFailedResult } from '@toolhost/core/dispatch';
import { redactText } from '@toolhost/core/redact';
import { decidedBy, type ApprovalDecider } from '../approval/approval-decided-by.js';
import { pickShownPreview } from '../approval/pick-preview.js';
import { shownToolId } from '../commands/shown-tool-id.js';
import type { UiEventHub } from './ui-event-hub.js';
import type { UiSpill } from './ui-event.js';

/** Where one run's calls are reported. */
export interface UiEventsOptions {
  readonly hub: UiEventHub;
  /** The served client session these calls belong to (its run id). */
  readonly sessionId: string;
  /** Keeps a spill for the session's own spill view; returns its page-facing id. */
  readonly recordSpill?: (spill: { readonly ref: string; readonly byteLength: number }) => UiSpill;
  /** Told at the start of every dispatch (the session appears on the page with its first call). */
  readonly onDispatch?: () => void;
  readonly now?: () => number;
}

/** The longest decision reason the page shows (a page's own deny is bounded the same). */
const MAX_REASON = 500;

/**
 * Wraps a registry so every dispatch reports its steps to the control tower: called, approval
 * requested and decided, result. Like `withAudit`, only secret-free data leaves: the input and
 * output are the engine's projections (`outcome.events`), the approval the request's redacted
 * preview, a failure its code, fixed reason and fixed message. Raw arguments never do.
 */
export function withUiEvents(registry: ToolRegistry, options: UiEventsOptions): ToolRegistry {
  const { hub, sessionId, now = Date.now } = options;
  return Object.freeze({
    get: (id: string) => registry.get(id),
    list: () => registry.list(),
    missingHostArm: (id: string) => registry.missingHostArm(id),
    preflight: (call, ctx) => registry.preflight(call, ctx),
    dispatch: async (call, ctx) => {
      options.onDispatch?.();
      const head = { sessionId, callId: randomUUID(), toolId: shownToolId(registry, call.name) };
      const started = now();
      hub.publish({ ...head, step: 'called', at: started });
      const observed = observeApproval(ctx, (event) => hub.publish({ ...head, ...event }));
      try {
        const outcome = await registry.dispatch(call, observed);
        hub.publish({ ...head, ...resultOf(outcome, options), durationMs: now() - started });
        return outcome;
      } catch (error) {
        hub.publish({ ...head, ...failureOf(error, ctx), durationMs: now() - started });
        throw error;
      }
    },
  } satisfies ToolRegistry);
}

type ApprovalStep =
  | {
      readonly step: 'approval_requested';
      readonly action: ToolActionClass;
      readonly preview: ToolActionPreview;
    }
  | {
      readonly step: 'approval_decided';
      readonly outcome: 'approved' | 'denied';
      readonly by: ApprovalDecider;
      readonly refusal?: string;
      readonly reason?: string;
    };

// The gate's own hooks, observed: the request as the engine emits it (already without
// `unredactedPreview`, copied field by field anyway), the decision as the gate returned it.
function observeApproval(
  ctx: ToolDispatchContext,
  report: (step: ApprovalStep) => void,
): ToolDispatchContext {
  const approval = ctx.approval;
  if (approval === undefined) return ctx;
  const confirm: ConfirmActionHook | undefined =
    approval.confirm === undefined
      ? undefined
      : async (request, signal) => {
          try {
            const decision = await approval.confirm!(request, signal);
            const by = decidedBy(decision);
            report(
              decision.outcome === 'approve'
                ? { step: 'approval_decided', outcome: 'approved', by }
                : {
                    step: 'approval_decided',
                    outcome: 'denied',
                    by,
                    ...(decision.refusal === undefined ? {} : { refusal: decision.refusal }),
                    ...(typeof decision.reason === 'string'
                      ? { reason: displayReason(decision.reason) }
                      : {}),
                  },
            );
            return decision;
          } catch (error) {
            report({ step: 'approval_decided', outcome: 'denied', by: 'cancelled' });
            throw error;
          }
        };
  return {
    ...ctx,
    approval: {
      ...(confirm === undefined ? {} : { confirm }),
      emitApprovalRequested: (event) => {
        report({
          step: 'approval_requested',
          action: event.action,
          preview: pickShownPreview(event.preview),
        });
        approval.emitApprovalRequested?.(event);
      },
    },
  };
}

function resultOf(outcome: ToolDispatchOutcome, options: UiEventsOptions) {
  const { call, result } = outcome.events;
  const spill =
    outcome.spill === undefined || options.recordSpill === undefined
      ? undefined
      : options.recordSpill(outcome.spill);
  const resultBytes = byteLengthOf(unwrapUntrusted(outcome.toolResult).result);
  return {
    step: 'result' as const,
    success: true,
    toolInput: call.toolInput,
    outputSummary: result.outputSummary,
    truncated: outcome.truncated,
    ...(resultBytes === undefined ? {} : { resultBytes }),
    ...(spill === undefined ? {} : { spill }),
  };
}

function failureOf(error: unknown, ctx: ToolDispatchContext) {
  const cancelled = ctx.signal?.aborted === true || classifyToolError(error) === 'cancelled';
  const errorCode = cancelled
    ? 'cancelled'
    : error instanceof ToolDispatchError
      ? error.code
      : 'internal';
  const reason: unknown =
    error instanceof ToolDispatchError ? (error as { reason?: unknown }).reason : undefined;
  return {
    step: 'result' as const,
    success: false,
    // A dispatch error's message is a fixed template; anything else is not shown at all.
    outputSummary:
      error instanceof ToolDispatchError
        ? projectFailedResult(error).outputSummary
        : 'internal error',
    errorCode,
    ...(typeof reason === 'string' ? { reason: displayReason(reason) } : {}),
  };
}

// A reason is a label, but an elicitation's "no, because …" is a person's free text.
function displayReason(reason: string): string {
  return redactText(reason).slice(0, MAX_REASON);
}

function byteLengthOf(value: unknown): number | undefined {
  try {
    const json = typeof value === 'string' ? value : JSON.stringify(value);
    return json === undefined ? undefined : Buffer.byteLength(json, 'utf8');
  } catch {
    return undefined;
  }
}
