import {
  toProviderTools,
  unwrapUntrusted,
  type AnyToolDef,
  type ToolhostAdapterOptions,
} from '@toolhost/core';
import { toModelText } from '@toolhost/core/bound';
import {
  applyFailureLadder,
  approvalActionClass,
  resolveAdapterOptions,
  type LoopRegistry,
} from '@toolhost/core/loop';
import { fromOpenAiStrictArgs } from '@toolhost/core/lowering';
import type { ToolApprovalContext } from '@toolhost/core/policy';
import { tool, type FunctionTool, type RunContext } from '@openai/agents';
import { bindTool, type AdapterState } from './adapter-binding.js';
import { mediaToolOutput } from './media-tool-output.js';
import { presentForApproval } from './present-for-approval.js';
import { createRunLedgers } from './run-ledger.js';
import { isTurnEnding, markTurnEnding } from './turn-ending.js';

/** toolhost's adapter options, plus `approval: 'sdk'` for the run's interruption flow. */
export interface OpenAiAgentsToolhostOptions extends Omit<ToolhostAdapterOptions, 'approval'> {
  /**
   * `'sdk'`: a governed call (`fs_write`, `process`, `egress`, `os`) the engine's checks let
   * through stops the run with `result.interruptions` (show `toolhostApprovalPreview`, never the
   * raw arguments); `state.approve(item)` / `state.reject(item)` and a resumed
   * `run(agent, state)` decide them. A `ToolApprovalContext`: toolhost's own `confirm`
   * hook decides inside the pipeline. Absent: no interactive approval (the floors still apply).
   */
  readonly approval?: ToolApprovalContext | 'sdk';
}

/**
 * The granted tools as `@openai/agents` function tools. Each runs the whole toolhost pipeline
 * with the run's abort signal. Correctable failures come back to the model as text while the
 * correction budget lasts; a fatal failure or a cancellation rejects `run()` with a
 * `ToolCallError` whose `toolhostRunError(error)` is the typed toolhost error.
 */
export function toolhostAgentTools(
  registry: LoopRegistry,
  options: OpenAiAgentsToolhostOptions,
): FunctionTool[] {
  const { approval, ...rest } = options;
  const resolved = resolveAdapterOptions(registry, {
    ...rest,
    ...(approval === undefined || approval === 'sdk' ? {} : { approval }),
  });
  // One ledger per run: the run context is the one object every call of a run shares.
  const adapter: AdapterState = {
    registry,
    resolved,
    ledgerOf: createRunLedgers(resolved.maxCorrections),
    lastListed: undefined,
  };
  return resolved.tools.map((def) => agentTool(def, adapter, approval === 'sdk'));
}

type ToolCallDetails = Parameters<FunctionTool['invoke']>[2];

function agentTool(def: AnyToolDef, adapter: AdapterState, sdkApproval: boolean): FunctionTool {
  const { registry, resolved, ledgerOf } = adapter;
  const governed = approvalActionClass(def) !== undefined;
  // Strict where the schema has a strict form; the model then sends null for omitted optionals.
  const [lowered] = toProviderTools([def], 'openai-responses');
  const strict = lowered?.strict === true;
  const ladder = (error: unknown, runContext: RunContext | undefined): string => {
    const ledger = ledgerOf(runContext);
    const step = applyFailureLadder(error, {
      budget: ledger.budget,
      // Calls answering one model response share a round: one correction per response.
      round: ledger.round,
      recoverToolFailures: resolved.recoverToolFailures,
    });
    if (step.action === 'feed_back') return step.text;
    throw markTurnEnding(step.error);
  };
  const created = tool({
    name: def.id,
    description: def.description,
    // Only the model-visible projection: config-only keys never reach the model.
    parameters: (lowered?.parameters ?? def.llmVisibleParams) as never,
    strict: strict as false,
    // The engine's checks first: a call toolhost refuses is never put to a human.
    needsApproval:
      sdkApproval && governed
        ? async (_runContext: RunContext, input: unknown, callId?: string) =>
            presentForApproval({ adapter, def, strict }, input, callId)
        : false,
    // The SDK lists the tools before every model call: the round boundary, and the last point
    // to end a run whose budget a correction the SDK fed back (an unknown tool) has spent.
    isEnabled: ({ runContext }) => {
      const ledger = ledgerOf(runContext);
      if (ledger.pendingError !== undefined) throw ledger.pendingError;
      ledger.listed(def.id);
      adapter.lastListed = ledger;
      return true;
    },
    execute: async (input: unknown, runContext?: RunContext, details?: ToolCallDetails) => {
      const signal = details?.signal;
      const callId = details?.toolCall?.callId ?? '';
      const ctx = resolved.contextFor(def.id, {
        ...(signal === undefined ? {} : { signal }),
        ...(sdkApproval ? { approval: sdkApprovedGate(def.id, callId, runContext) } : {}),
      });
      try {
        const args = strict ? fromOpenAiStrictArgs(def, input) : input;
        const outcome = await registry.dispatch({ id: callId, name: def.id, args }, ctx);
        // The placement site: the SDK puts this in the function_call_output position.
        const { result } = unwrapUntrusted(outcome.toolResult);
        // The text bounding measured, not the SDK's JSON of it: a file's lines stay lines.
        if (outcome.mediaAttachments === undefined) return toModelText(result);
        return mediaToolOutput(
          result,
          unwrapUntrusted(outcome.mediaAttachments),
          resolved.randomNonce,
        );
      } catch (error) {
        return ladder(error, runContext);
      }
    },
    // `execute` feeds back every correction itself, so what reaches here ends the run: the errors
    // the ladder threw, and any SDK-side failure toolhost has not judged (fail closed).
    errorFunction: (_runContext, error) => {
      throw isTurnEnding(error) ? error : markTurnEnding(error);
    },
  }) as FunctionTool;
  return bindTool(created, { adapter, def, strict });
}

// Under `approval: 'sdk'` the pipeline's gate approves exactly the calls the human approved in
// the run's own approval record, and refuses anything never presented.
function sdkApprovedGate(
  toolName: string,
  callId: string,
  runContext: RunContext | undefined,
): ToolApprovalContext {
  return {
    confirm: async () =>
      runContext?.isToolApproved({ toolName, callId }) === true
        ? { outcome: 'approve' }
        : { outcome: 'reject', reason: 'not presented for approval' },
  };
}
