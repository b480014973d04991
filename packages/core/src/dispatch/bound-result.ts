import { backstopInlineMedia } from '../bound/backstop-inline-media.js';
import { DEFAULT_TOOL_RESULT_LIMITS } from '../bound/default-tool-result-limits.js';
import { overCeilingText, truncate, type BoundedResult } from '../bound/bound-for-model.js';
import type { ToolDispatchContext } from '../dispatch-context.js';
import type { ToolOutputStore } from '../tool-host.js';

/**
 * Step 8: the model-facing copy within `ctx.limits`, inline media replaced first (media reaches
 * the model only as a handle). Synchronous when the result fits (the common case), so a small
 * result costs no extra await on the dispatch path.
 */
export function boundResult(
  result: unknown,
  store: ToolOutputStore | undefined,
  ctx: Pick<ToolDispatchContext, 'limits' | 'signal'>,
): BoundedResult | Promise<BoundedResult> {
  const limits = ctx.limits ?? DEFAULT_TOOL_RESULT_LIMITS;
  // Before bounding: a blob that is replaced no longer pushes the rest of the result into a spill.
  const modelView = backstopInlineMedia(result);
  const over = overCeilingText(modelView, limits);
  if (over === undefined) return { result: modelView, truncated: false };
  return truncate(over, limits, store, ctx.signal);
}
