import { DEFAULT_TOOL_RESULT_LIMITS } from '../bound/default-tool-result-limits.js';
import { overCeilingText, truncate, type BoundedResult } from '../bound/bound-for-model.js';
import type { ToolDispatchContext } from '../dispatch-context.js';
import type { ToolOutputStore } from '../tool-host.js';

/**
 * Step 8: the model-facing copy within `ctx.limits`. Synchronous when the result fits (the
 * common case), so a small result costs no extra await on the dispatch path.
 */
export function boundResult(
  result: unknown,
  store: ToolOutputStore | undefined,
  ctx: Pick<ToolDispatchContext, 'limits' | 'signal'>,
): BoundedResult | Promise<BoundedResult> {
  const limits = ctx.limits ?? DEFAULT_TOOL_RESULT_LIMITS;
  const over = overCeilingText(result, limits);
  if (over === undefined) return { result, truncated: false };
  return truncate(over, limits, store, ctx.signal);
}
