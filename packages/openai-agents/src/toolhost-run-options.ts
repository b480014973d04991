import { ToolArgsInvalidError, UnknownToolError } from '@toolhost/core';
import type {
  CallModelInputFilter,
  FunctionTool,
  ToolErrorFormatter,
  ToolNotFoundBehavior,
} from '@openai/agents';
import { bindingOf, type AdapterState, type ToolBinding } from './adapter-binding.js';
import { markTurnEnding } from './turn-ending.js';

/** The `run()` options that put the SDK's own corrections on toolhost's budget. */
export interface ToolhostRunOptions {
  readonly toolNotFoundBehavior: ToolNotFoundBehavior;
  readonly toolErrorFormatter: ToolErrorFormatter;
  readonly callModelInputFilter: CallModelInputFilter;
}

/**
 * Run options for `run(agent, input, { ...toolhostRunOptions(tools) })`. Two corrections never
 * reach a tool, because the SDK answers them itself; these options charge them to the same
 * correction budget as the rest, as core's loop does:
 * - an unknown tool name: fed back as core's `UnknownToolError` text (the granted tools), and
 *   once the budget is spent the run rejects with that error before the next model call;
 * - unparsable JSON arguments: the SDK's fixed feedback is charged, and once the budget is
 *   spent the run rejects with `ToolArgsInvalidError` before the next model call.
 * `tools` is the array one `toolhostAgentTools` call returned.
 */
export function toolhostRunOptions(tools: readonly FunctionTool[]): ToolhostRunOptions {
  const bound = tools.map(bindingOf).filter((binding) => binding !== undefined);
  const adapter = bound[0]?.adapter;
  if (adapter === undefined || bound.some((binding) => binding.adapter !== adapter)) {
    throw new TypeError(
      'toolhost: toolhostRunOptions takes the tools one toolhostAgentTools built',
    );
  }
  const byName = new Map(bound.map((binding) => [binding.def.id, binding]));
  const grantedIds = adapter.resolved.tools.map((def) => def.id);
  return {
    toolNotFoundBehavior: 'return_error_to_model',
    toolErrorFormatter: ({ kind, toolName, callId, runContext }) => {
      if (kind !== 'tool_not_found') return undefined;
      const error = new UnknownToolError(toolName, grantedIds);
      const ledger = adapter.ledgerOf(runContext);
      // The formatter cannot end the run (the SDK swallows its throw): the next listing does.
      if (!ledger.chargedCalls.has(callId)) {
        ledger.chargedCalls.add(callId);
        if (!ledger.charge()) ledger.pendingError ??= markTurnEnding(error);
      }
      return error.message;
    },
    callModelInputFilter: ({ modelData }) => {
      chargeUnparsableCalls(adapter, byName, modelData.input);
      return modelData;
    },
  };
}

// Unparsable arguments never reach `execute`: the SDK answers them. Seen here, in the next model
// call's input, they are charged to the round they came from (the listing just advanced it).
function chargeUnparsableCalls(
  adapter: AdapterState,
  byName: ReadonlyMap<string, ToolBinding>,
  input: readonly unknown[],
): void {
  const ledger = adapter.lastListed;
  if (ledger === undefined) return;
  for (const item of input) {
    if (!isFunctionCall(item) || !byName.has(item.name) || parses(item.arguments)) continue;
    if (ledger.chargedCalls.has(item.callId)) continue;
    ledger.chargedCalls.add(item.callId);
    if (!ledger.charge(ledger.round - 1)) {
      throw markTurnEnding(
        new ToolArgsInvalidError(item.name, [{ field: '(root)', problem: 'not_json' }]),
      );
    }
  }
}

interface FunctionCallInput {
  readonly name: string;
  readonly callId: string;
  readonly arguments: string;
}

function isFunctionCall(item: unknown): item is FunctionCallInput {
  if (typeof item !== 'object' || item === null) return false;
  const { type, name, callId } = item as Record<string, unknown>;
  return type === 'function_call' && typeof name === 'string' && typeof callId === 'string';
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
