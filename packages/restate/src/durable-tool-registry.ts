import * as restate from '@restatedev/restate-sdk';
import {
  ToolCancelledError,
  ToolDispatchError,
  UnknownToolError,
  type AnyToolDef,
  type ToolApprovalDecision,
  type ToolDispatchContext,
} from '@toolhost/core';
import type { ToolJournalContext } from '@toolhost/core/journal';
import type { LoopDispatchOutcome, LoopRegistry, LoopToolCall } from '@toolhost/core/loop';
import type { ActionGuard, ActionGuardDecision } from '@toolhost/core/policy';

import type { ToolRunApprovals } from './approval-notice.js';
import { awaitApproval } from './await-approval.js';
import { rebuildStepError, toStepFailure } from './step-failure.js';
import {
  decodeStepOutcome,
  DEFAULT_STEP_RESULT_BYTES,
  encodeStepOutcome,
  MAX_STEP_RESULT_BYTES,
  type StepOutcome,
} from './step-outcome.js';
import { stepRetryOptions, type StepRetryPolicy } from './step-retry-policy.js';

/** The registry a durable run dispatches through: it must offer `preflight` (steps 1–5). */
export type DurableSourceRegistry = Pick<LoopRegistry, 'dispatch' | 'get' | 'list'> & {
  readonly preflight: NonNullable<LoopRegistry['preflight']>;
};

/** What turns a registry's dispatches into Restate steps. */
export interface DurableToolRegistryOptions {
  readonly registry: DurableSourceRegistry;
  /**
   * The effect journal every attempt of every worker sees (SQLite on one machine, Postgres
   * across machines): the claim is prepared inside the step, so a step Restate re-runs after a
   * crash finds it and refuses as `effect_unresolved` instead of repeating the effect.
   */
  readonly journal: ToolJournalContext;
  /** Present ⇒ every governed call waits for a person's decision, as an awakeable. */
  readonly approvals?: ToolRunApprovals;
  /** Retries of idempotent reads; side effects are always attempted once. */
  readonly readRetry?: StepRetryPolicy;
  /** The cap on one step's journaled outcome; default 4 MiB, at most 16 MiB. */
  readonly maxStepResultBytes?: number;
  /**
   * Prefixed to each call id to form its journal key, so two turns (or two invocations of one
   * run) whose model reused an id are never taken for one call. Stable across replays.
   */
  readonly callKeyPrefix?: string;
}

/**
 * A `LoopRegistry` over Restate: each call is screened (steps 1–5) in the handler, its governor
 * verdict and its person's decision made durable outside any step (an awakeable cannot live in
 * one), then dispatched as one named `ctx.run` step with the verdicts replayed into it. Feed it
 * to `runToolCalls` or an adapter; the handler's journal then holds every result.
 */
export function durableToolRegistry(
  ctx: restate.Context,
  options: DurableToolRegistryOptions,
): LoopRegistry {
  const { registry } = options;
  const capBytes = options.maxStepResultBytes ?? DEFAULT_STEP_RESULT_BYTES;
  if (!Number.isSafeInteger(capBytes) || capBytes <= 0 || capBytes > MAX_STEP_RESULT_BYTES) {
    throw new TypeError(
      `toolhost: maxStepResultBytes must be a positive integer up to ${MAX_STEP_RESULT_BYTES}`,
    );
  }
  const prefix = options.callKeyPrefix ?? '';
  return {
    get: (id) => registry.get(id),
    list: () => registry.list(),
    preflight: (call, dispatchCtx) => registry.preflight(call, dispatchCtx),
    async dispatch(call, dispatchCtx) {
      // Deterministic checks, before anything durable: a denial replays as the same denial.
      const screened = registry.preflight(call, dispatchCtx);
      const def = registry.get(call.name);
      // preflight refused every unregistered name; this only narrows the type.
      if (def === undefined) throw new UnknownToolError(call.name, registry.list());
      const toolId = def.id;
      let guardVerdict: GuardVerdict | undefined;
      let decision: ToolApprovalDecision | undefined;
      try {
        const { action, preview = {} } = screened;
        const guard = dispatchCtx.actionGuard;
        if (action !== undefined && guard !== undefined) {
          guardVerdict = await ctx.run(`guard ${toolId} ${stepLabel(call.id)}`, () =>
            askGuard(guard, { toolId, nodeId: dispatchCtx.nodeId, action, preview }),
          );
        }
        // The organisation goes first: a call it refuses is never put to a person.
        const allowed = guardVerdict === undefined || guardVerdict.outcome === 'allow';
        if (action !== undefined && options.approvals !== undefined && allowed) {
          decision = await awaitApproval(
            ctx,
            { runId: options.journal.runId, toolCallId: call.id, toolId, action, preview },
            options.approvals,
          );
        }
        const step = await ctx.run<StepOutcome>(
          `tool ${toolId} ${stepLabel(call.id)}`,
          () =>
            dispatchStep(def, { ...call, id: `${prefix}${call.id}` }, dispatchCtx, {
              registry,
              journal: options.journal,
              signal: ctx.request().attemptCompletedSignal,
              guardVerdict,
              decision,
              approvals: options.approvals !== undefined,
              capBytes,
            }),
          stepRetryOptions(def, options.readRetry),
        );
        return decodeStepOutcome(step);
      } catch (error) {
        throw fromRestate(error, def, call);
      }
    },
  };
}

// A step's name is for people reading Restate's journal; a model-chosen id is cut to a label.
function stepLabel(callId: string): string {
  return callId.length <= 64 ? callId : `${callId.slice(0, 64)}…`;
}

/** The governor's verdict as a step records it; `error` replays as a throw (which denies). */
type GuardVerdict = ActionGuardDecision | { readonly outcome: 'error' };

async function askGuard(
  guard: ActionGuard,
  request: Parameters<ActionGuard['decide']>[0],
): Promise<GuardVerdict> {
  try {
    const verdict = await guard.decide(request);
    // Only the two known shapes are journaled; anything else replays as a throw (deny).
    if (verdict?.outcome === 'allow') return { outcome: 'allow' };
    if (verdict?.outcome === 'deny') {
      return typeof verdict.reason === 'string'
        ? { outcome: 'deny', reason: verdict.reason }
        : { outcome: 'deny' };
    }
    return { outcome: 'error' };
  } catch {
    return { outcome: 'error' };
  }
}

interface StepInputs {
  readonly registry: DurableSourceRegistry;
  readonly journal: ToolJournalContext;
  readonly signal: AbortSignal;
  readonly guardVerdict: GuardVerdict | undefined;
  readonly decision: ToolApprovalDecision | undefined;
  readonly approvals: boolean;
  readonly capBytes: number;
}

// The dispatch itself, inside the step: the verdicts made durable outside are replayed into the
// pipeline, so its own order (guard, consent, claim, host, settle) and its errors stand.
async function dispatchStep(
  def: AnyToolDef,
  call: LoopToolCall,
  dispatchCtx: ToolDispatchContext,
  inputs: StepInputs,
): Promise<StepOutcome> {
  const { guardVerdict, decision } = inputs;
  const signal =
    dispatchCtx.signal === undefined
      ? inputs.signal
      : AbortSignal.any([inputs.signal, dispatchCtx.signal as AbortSignal]);
  const stepCtx: ToolDispatchContext = {
    ...dispatchCtx,
    journal: inputs.journal,
    signal,
    ...(dispatchCtx.actionGuard === undefined || guardVerdict === undefined
      ? {}
      : { actionGuard: replayedGuard(guardVerdict, dispatchCtx.actionGuard) }),
    ...(inputs.approvals
      ? {
          approval: {
            ...(decision === undefined ? {} : { confirm: async () => decision }),
            ...(dispatchCtx.approval?.emitApprovalRequested === undefined
              ? {}
              : { emitApprovalRequested: dispatchCtx.approval.emitApprovalRequested }),
          },
        }
      : {}),
  };
  let outcome: LoopDispatchOutcome;
  try {
    outcome = await inputs.registry.dispatch(call, stepCtx);
  } catch (error) {
    throw toStepFailure(error, def);
  }
  return encodeStepOutcome(outcome, inputs.capBytes);
}

function replayedGuard(verdict: GuardVerdict, guard: ActionGuard): ActionGuard {
  const decide = async (): Promise<ActionGuardDecision> => {
    if (verdict.outcome === 'error') throw new Error('the governor could not decide');
    return verdict;
  };
  return guard.commit === undefined ? { decide } : { decide, commit: guard.commit.bind(guard) };
}

// What the handler sees of a failed step: the typed error rebuilt, a cancellation as the tool's
// `cancelled`; the engine's own signals (suspension) pass through untouched.
function fromRestate(error: unknown, def: AnyToolDef, call: LoopToolCall): unknown {
  if (error instanceof ToolDispatchError) return error;
  if (error instanceof restate.CancelledError) return new ToolCancelledError(def.id);
  if (error instanceof restate.TerminalError) return rebuildStepError(error, def, call.name);
  return error;
}
