import type { ToolDispatchContext } from '../dispatch-context.js';
import { ToolDispatchError, ToolExecutionError } from '../errors.js';
import type { PolicyTarget, ToolId } from '../tool-def.js';

/**
 * The trusted, synchronous admission hook immediately before the host call. A throw proves no
 * dispatch started: a typed refusal passes through, anything else is a fatal admission failure.
 * A thenable return is a refusal too: the hook is synchronous by contract, and waiting on it
 * would let asynchronous work slip in between admission and the host call.
 */
export function admitDispatch(
  toolId: ToolId,
  target: PolicyTarget | undefined,
  beforeDispatch: ToolDispatchContext['beforeDispatch'],
): void {
  if (beforeDispatch === undefined) return;
  let returned: unknown;
  try {
    returned = beforeDispatch(toolId, target);
  } catch (error) {
    if (error instanceof ToolDispatchError) throw error;
    throw refusal(toolId, error);
  }
  if (typeof returned !== 'object' && typeof returned !== 'function') return;
  if (returned === null || !observeThenable(returned)) return;
  throw refusal(toolId, new TypeError('toolhost: beforeDispatch must be synchronous'));
}

function refusal(toolId: ToolId, cause: unknown): ToolExecutionError {
  return new ToolExecutionError(toolId, 'admission_refused', { cause, recoverable: false });
}

// Whether `value` is a thenable; if so its rejection is observed, so an async hook that later
// throws never surfaces as an unhandled rejection (which crashes Node by default). Fails closed:
// a `then` that cannot even be read counts as one.
function observeThenable(value: object): boolean {
  let then: unknown;
  try {
    then = (value as { then?: unknown }).then;
  } catch {
    return true;
  }
  if (typeof then !== 'function') return false;
  try {
    Reflect.apply(then, value, [undefined, () => undefined]);
  } catch {
    // The refusal stands whatever `then` does.
  }
  return true;
}
