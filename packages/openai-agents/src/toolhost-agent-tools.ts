import {
  applyFailureLadder,
  approvalActionClass,
  createCorrectionBudget,
  fromOpenAiStrictArgs,
  toModelText,
  resolveAdapterOptions,
  toProviderTools,
  unwrapUntrusted,
  type AnyToolDef,
  type CorrectionBudget,
  type LoopRegistry,
  type ResolvedAdapterOptions,
  type ToolApprovalContext,
  type ToolhostAdapterOptions,
} from '@toolhost/core';
import { tool, type FunctionTool, type RunContext } from '@openai/agents';
import { mediaToolOutput } from './media-tool-output.js';

/** toolhost's adapter options, plus `approval: 'sdk'` for the run's interruption flow. */
export interface OpenAiAgentsToolhostOptions extends Omit<ToolhostAdapterOptions, 'approval'> {
  /**
   * `'sdk'`: governed calls (`fs_write`, `process`, `egress`, `os`) set `needsApproval`, so the
   * run stops with `result.interruptions`; `state.approve(item)` / `state.reject(item)` and a
   * resumed `run(agent, state)` decide them. A `ToolApprovalContext`: toolhost's own `confirm`
   * hook decides inside the pipeline. Absent: no interactive approval (the floors still apply).
   */
  readonly approval?: ToolApprovalContext | 'sdk';
}

// Errors a tool threw to end the run's turn, so `errorFunction` never turns them into text.
const turnEnding = new WeakSet<object>();

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
  // One budget per run: the run context is the one object every call of a run shares.
  const budgets = new WeakMap<object, CorrectionBudget>();
  const budgetOf = (runContext: RunContext | undefined): CorrectionBudget => {
    const key = runContext ?? {};
    let budget = budgets.get(key);
    if (budget === undefined) {
      budget = createCorrectionBudget(resolved.maxCorrections);
      budgets.set(key, budget);
    }
    return budget;
  };
  return resolved.tools.map((def) =>
    agentTool(def, { registry, resolved, sdkApproval: approval === 'sdk', budgetOf }),
  );
}

/** The typed toolhost error inside a rejected `run()`, or the error itself. */
export function toolhostRunError(error: unknown): unknown {
  if (
    typeof error === 'object' &&
    error !== null &&
    'error' in error &&
    isTurnEnding(error.error)
  ) {
    return error.error;
  }
  return error;
}

function isTurnEnding(error: unknown): boolean {
  return typeof error === 'object' && error !== null && turnEnding.has(error);
}

interface AgentToolDeps {
  readonly registry: LoopRegistry;
  readonly resolved: ResolvedAdapterOptions;
  readonly sdkApproval: boolean;
  readonly budgetOf: (runContext: RunContext | undefined) => CorrectionBudget;
}

type ToolCallDetails = Parameters<FunctionTool['invoke']>[2];

function agentTool(def: AnyToolDef, deps: AgentToolDeps): FunctionTool {
  const { registry, resolved, sdkApproval, budgetOf } = deps;
  const governed = approvalActionClass(def) !== undefined;
  // Strict where the schema has a strict form; the model then sends null for omitted optionals.
  const [lowered] = toProviderTools([def], 'openai-responses');
  const strict = lowered?.strict === true;
  const ladder = (error: unknown, runContext: RunContext | undefined): string => {
    const step = applyFailureLadder(error, {
      budget: budgetOf(runContext),
      // Calls answering one model response share a request count: one correction per round.
      round: runContext?.usage.requests,
      recoverToolFailures: resolved.recoverToolFailures,
    });
    if (step.action === 'feed_back') return step.text;
    if (typeof step.error === 'object' && step.error !== null) turnEnding.add(step.error);
    throw step.error;
  };
  return tool({
    name: def.id,
    description: def.description,
    // Only the model-visible projection: config-only keys never reach the model.
    parameters: (lowered?.parameters ?? def.llmVisibleParams) as never,
    strict: strict as false,
    needsApproval: sdkApproval && governed,
    execute: async (input: unknown, runContext?: RunContext, details?: ToolCallDetails) => {
      const signal = details?.signal;
      const ctx = resolved.contextFor(def.id, {
        ...(signal === undefined ? {} : { signal }),
        ...(sdkApproval ? { approval: sdkApprovedGate(governed) } : {}),
      });
      const callId = details?.toolCall?.callId ?? '';
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
    // Reached only for SDK-side failures (unparsable JSON from the model) and the errors the
    // ladder threw: those must end the run, everything else is a correction like any other.
    errorFunction: (runContext, error) => {
      if (isTurnEnding(error)) throw error;
      if (!budgetOf(runContext).charge(runContext.usage.requests)) throw error;
      return 'tool input was not one valid JSON object; send arguments matching the schema';
    },
  }) as FunctionTool;
}

// Under `approval: 'sdk'` the run only calls `execute` after the human approved the interruption,
// so the pipeline's gate approves exactly the calls that were presented and refuses anything else.
function sdkApprovedGate(governed: boolean): ToolApprovalContext {
  return {
    confirm: async () =>
      governed
        ? { outcome: 'approve' }
        : { outcome: 'reject', reason: 'not presented for approval' },
  };
}
