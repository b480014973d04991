import type { SpilledResult, DurableMediaPart } from '../tool-host.js';
import type { ToolId } from '../tool-def.js';
import type { Untrusted } from '../untrusted.js';

/** A model's (or a tool node's) request to run one tool. */
export interface ToolCall {
  /** The provider's call id, echoed as `toolCallId`. */
  readonly id: string;
  /** The tool id, matched exactly. */
  readonly name: string;
  /** Model-supplied args; absent for a tool node whose values all come from `inputMapping`. */
  readonly args?: unknown;
  /** The provider already ran it; the engine refuses to run it again. */
  readonly providerExecuted?: boolean;
  readonly type?: 'tool_call';
}

/** The model-facing result of one call; `result` is the bounded value. */
export interface ToolResultPart {
  readonly type: 'tool_result';
  readonly toolCallId: string;
  readonly toolName: ToolId;
  readonly result: unknown;
}

/** The secret-free `tool_call` / `tool_result` projections for an event bus, computed on read. */
export interface ToolDispatchEvents {
  readonly call: { readonly toolId: ToolId; readonly toolInput: unknown };
  readonly result: {
    readonly toolId: ToolId;
    readonly success: boolean;
    readonly outputSummary: string;
  };
}

/** What one successful dispatch produced. */
export interface ToolDispatchOutcome {
  /** The bounded, untrusted-branded tool result for the model. */
  readonly toolResult: Untrusted<ToolResultPart>;
  /** `outputMapping` applied to the FULL result (the full result when there is no mapping). */
  readonly output: unknown;
  /** The model-facing copy was cut. */
  readonly truncated: boolean;
  /** Where the full text went when it was cut and the store took it. */
  readonly spill?: SpilledResult;
  /** Handle-only media the tool asked to deliver, branded untrusted. */
  readonly mediaAttachments?: Untrusted<readonly DurableMediaPart[]>;
  readonly events: ToolDispatchEvents;
  /** How the durable effect bracket handled a journaled call; absent when it was not journaled. */
  readonly journal?: ToolJournalOutcome;
}

/**
 * `replayed`: answered from a settled record; neither `beforeDispatch` nor the host ran.
 * `settled`: the effect ran and its record is durable. `unsettled`: the effect ran but no record
 * could be written (the store failed, or the result does not fit the cap even bounded): the claim
 * stays unresolved, so a replay refuses it as `effect_unresolved` and never repeats it.
 */
export interface ToolJournalOutcome {
  readonly status: 'replayed' | 'settled' | 'unsettled';
  /**
   * The record kept only the bounded model-facing result (over the size cap, or no exact JSON
   * form): a replay returns that bounded result as `output` too.
   */
  readonly outputDropped: boolean;
  /** The replayed record is an operator's resolution: `OPERATOR_RESOLVED_RESULT` stands in. */
  readonly operatorResolved: boolean;
}
