import { backstopInlineMedia } from '../bound/backstop-inline-media.js';
import { overCeilingText, truncate, type BoundedResult } from '../bound/bound-for-model.js';
import type { AbortSignalLike } from '../abort-signal-like.js';
import type { ToolResultLimits } from '../dispatch-context.js';
import type { ToolOutputStore } from '../tool-host.js';

/**
 * Step 8: the model-facing copy within the call's checked limits, inline media replaced first (media reaches
 * the model only as a handle). Synchronous when the result fits (the common case), so a small
 * result costs no extra await on the dispatch path.
 */
export function boundResult(
  result: unknown,
  store: ToolOutputStore | undefined,
  limits: ToolResultLimits,
  signal?: AbortSignalLike,
): BoundedResult | Promise<BoundedResult> {
  // Before bounding: a blob that is replaced no longer pushes the rest of the result into a spill.
  const modelView = backstopInlineMedia(result);
  const over = overCeilingText(modelView, limits);
  if (over === undefined) return { result: modelView, truncated: false };
  return truncate(over, limits, store, signal);
}
