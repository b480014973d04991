import type { BoundedResult } from '../bound/bound-for-model.js';
import type { ToolId } from '../tool-def.js';
import type { DurableMediaPart } from '../tool-host.js';
import { markUntrusted } from '../untrusted.js';
import type { ToolDispatchEvents, ToolDispatchOutcome, ToolJournalOutcome } from './tool-call.js';

/** What the last step assembles into the outcome. */
export interface BrandInput {
  readonly toolCallId: string;
  readonly toolId: ToolId;
  readonly bounded: BoundedResult;
  readonly output: unknown;
  readonly parts: readonly DurableMediaPart[] | undefined;
  readonly events: ToolDispatchEvents;
  readonly journal?: ToolJournalOutcome | undefined;
}

/**
 * Step 9: both model-bound halves leave branded untrusted: the tool result and the media the
 * tool chose, which rides a user-position message and needs the brand even more.
 */
export function brandUntrusted(input: BrandInput): ToolDispatchOutcome {
  const { bounded, parts } = input;
  const toolResult = markUntrusted(
    Object.freeze({
      type: 'tool_result' as const,
      toolCallId: input.toolCallId,
      toolName: input.toolId,
      result: bounded.result,
    }),
  );
  const outcome: {
    -readonly [Key in keyof ToolDispatchOutcome]: ToolDispatchOutcome[Key];
  } = { toolResult, output: input.output, truncated: bounded.truncated, events: input.events };
  if (bounded.spill !== undefined) outcome.spill = bounded.spill;
  if (parts !== undefined) outcome.mediaAttachments = markUntrusted(parts);
  if (input.journal !== undefined) outcome.journal = input.journal;
  return outcome;
}
