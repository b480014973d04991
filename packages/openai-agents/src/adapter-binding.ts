import type { AnyToolDef } from '@toolhost/core';
import type { LoopRegistry, ResolvedAdapterOptions } from '@toolhost/core/loop';
import type { FunctionTool } from '@openai/agents';
import type { RunLedger, RunLedgers } from './run-ledger.js';

/** What one `toolhostAgentTools` call shares between its tools and its run-level helpers. */
export interface AdapterState {
  readonly registry: LoopRegistry;
  readonly resolved: ResolvedAdapterOptions;
  readonly ledgerOf: RunLedgers;
  /**
   * The ledger of the run that last listed these tools. The SDK lists the tools and then filters
   * the model input for the same model call, and the input filter is not told the run context.
   */
  lastListed: RunLedger | undefined;
}

/** One function tool's toolhost side. */
export interface ToolBinding {
  readonly adapter: AdapterState;
  readonly def: AnyToolDef;
  /** Lowered to OpenAI's strict form: the model sends `null` for omitted optionals. */
  readonly strict: boolean;
}

const bindings = new WeakMap<FunctionTool, ToolBinding>();

/** Remembers which adapter built `tool`. */
export function bindTool(tool: FunctionTool, binding: ToolBinding): FunctionTool {
  bindings.set(tool, binding);
  return tool;
}

/** The binding of a tool `toolhostAgentTools` built, or `undefined` for any other tool. */
export function bindingOf(tool: unknown): ToolBinding | undefined {
  return typeof tool === 'object' && tool !== null ? bindings.get(tool as FunctionTool) : undefined;
}
