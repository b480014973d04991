import type { ToolResultLimits } from '../dispatch-context.js';

/** The model-facing ceiling when `ctx.limits` is absent: 50 KiB or 2000 lines. */
export const DEFAULT_TOOL_RESULT_LIMITS: ToolResultLimits = Object.freeze({
  maxBytes: 51_200,
  maxLines: 2000,
});
