import type { ToolDispatchContext } from '../dispatch-context.js';
import { ToolDispatchError, ToolExecutionError } from '../errors.js';
import type { PolicyTarget, ToolId } from '../tool-def.js';

/**
 * The trusted, synchronous admission hook immediately before the host call. A throw proves no
 * dispatch started: a typed refusal passes through, anything else is a fatal admission failure.
 */
export function admitDispatch(
  toolId: ToolId,
  target: PolicyTarget | undefined,
  beforeDispatch: ToolDispatchContext['beforeDispatch'],
): void {
  if (beforeDispatch === undefined) return;
  try {
    beforeDispatch(toolId, target);
  } catch (error) {
    if (error instanceof ToolDispatchError) throw error;
    throw new ToolExecutionError(toolId, 'admission_refused', { cause: error, recoverable: false });
  }
}
