import type { ToolHostArm } from '../tool-host-arm.js';
import type { ToolDispatchContext, ToolPreflight } from '../dispatch-context.js';
import type { AnyToolDef, ToolId } from '../tool-def.js';
import type { DurableMediaPart } from '../tool-host.js';
import type { Untrusted } from '../untrusted.js';

/** One model-requested tool call, as the loop hands it to `dispatch`. */
export interface LoopToolCall {
  readonly id: string;
  readonly name: string;
  readonly args: unknown;
  readonly providerExecuted?: boolean;
}

/** The slice of a dispatch outcome the loop places in the conversation. */
export interface LoopDispatchOutcome {
  /** The bounded model-facing result, branded untrusted by the registry. */
  readonly toolResult: Untrusted<{ readonly type: 'tool_result'; readonly result: unknown }>;
  readonly mediaAttachments?: Untrusted<readonly DurableMediaPart[]>;
}

/**
 * The slice of `createToolRegistry(...)` the loop and the adapters need. Structural, so the
 * registry satisfies it without the loop importing the pipeline.
 */
export interface LoopRegistry {
  dispatch(call: LoopToolCall, ctx: ToolDispatchContext): Promise<LoopDispatchOutcome>;
  /** Dispatch's checks before consent, synchronously; optional so a hand-rolled registry fits. */
  preflight?(call: LoopToolCall, ctx: ToolDispatchContext): ToolPreflight;
  get(id: ToolId): AnyToolDef | undefined;
  list(): readonly ToolId[];
  /** The host arm a tool needs and the host lacks; optional so a hand-rolled registry fits. */
  missingHostArm?(id: ToolId): ToolHostArm | undefined;
}
