import { DEFAULT_TOOL_RESULT_LIMITS } from '../bound/default-tool-result-limits.js';
import type { ToolResultLimits } from '../dispatch-context.js';
import { ToolPolicyError } from '../errors.js';
import type { ToolId } from '../tool-def.js';

/**
 * `ctx.limits` as the bound will use it, decided at dispatch entry: a partial object is merged
 * over `DEFAULT_TOOL_RESULT_LIMITS`, and a value that is not a positive safe integer (`NaN`, a
 * negative, a fraction, a string) is refused as `invalid_limits` — before any effect. Unchecked,
 * it threw a raw `RangeError` in the bound, after the host had already written or spawned.
 */
export function resolveLimits(
  toolId: ToolId,
  limits: Partial<ToolResultLimits> | undefined,
): ToolResultLimits {
  if (limits === undefined) return DEFAULT_TOOL_RESULT_LIMITS;
  if (typeof limits !== 'object' || limits === null) {
    throw new ToolPolicyError(toolId, 'invalid_limits');
  }
  const maxBytes = limits.maxBytes ?? DEFAULT_TOOL_RESULT_LIMITS.maxBytes;
  const maxLines = limits.maxLines ?? DEFAULT_TOOL_RESULT_LIMITS.maxLines;
  if (!isCeiling(maxBytes) || !isCeiling(maxLines)) {
    throw new ToolPolicyError(toolId, 'invalid_limits');
  }
  // The caller's own complete object is used as is: no allocation on the common path.
  if (maxBytes === limits.maxBytes && maxLines === limits.maxLines) {
    return limits as ToolResultLimits;
  }
  return Object.freeze({ maxBytes, maxLines });
}

function isCeiling(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) > 0;
}
