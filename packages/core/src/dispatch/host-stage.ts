import type { ToolDispatchContext, ToolResultLimits } from '../dispatch-context.js';
import type { AnyToolDef, PolicyTarget } from '../tool-def.js';
import type { ToolHost } from '../tool-host.js';
import { splitMedia } from '../with-media.js';
import { splitModelView } from '../with-model-view.js';
import { admitDispatch } from './admit-dispatch.js';
import { boundResult } from './bound-result.js';
import { callHost } from './call-host.js';
import { commitAction } from './commit-action.js';
import type { GuardedCall } from './gate-governed.js';
import type { DispatchedCall } from './journal-bracket.js';
import { mapOutput } from './map-output.js';

/**
 * Steps 5–8 of one call, as data: the durable effect bracket runs them (or replays instead of
 * them). Plain functions over an object rather than per-call closures: this is the hot path.
 */
export interface HostStage {
  readonly def: AnyToolDef;
  readonly args: unknown;
  readonly target: PolicyTarget | undefined;
  readonly host: ToolHost;
  readonly ctx: ToolDispatchContext;
  /** The checked ceilings (`resolveLimits`), never `ctx.limits` as given. */
  readonly limits: ToolResultLimits;
  /** The guard that allowed a governed call, told how the host call ended. */
  readonly guarded: GuardedCall | undefined;
  /** Governed or side-effecting: a failure is never fed back for a retry. */
  readonly sideEffecting: boolean;
}

/** Step 5, `beforeDispatch`: synchronous, and a throw proves nothing started. */
export function admitStage({ def, target, ctx }: HostStage): void {
  admitDispatch(def.id, target, ctx.beforeDispatch);
}

/**
 * Steps 6–8 under `callCtx` (the bracket's, carrying a journaled call's idempotency key), as
 * one call of the host's spill quota: the process output it spills and the bounded result share
 * one per-call budget.
 */
export function runStage(stage: HostStage, callCtx: ToolDispatchContext): Promise<DispatchedCall> {
  const { host } = stage;
  // The host's per-call view holds the call's budget itself: nothing to wrap the work in.
  if (host.forCall !== undefined) return hostSteps(stage, host.forCall(), callCtx);
  const store = host.outputStore;
  if (store?.runCall === undefined) return hostSteps(stage, host, callCtx);
  return store.runCall(() => hostSteps(stage, host, callCtx));
}

// 6 the one host call (and the guard's commit) → 6b split media → 7 output mapping on the FULL
// result → 8 bound the model-facing copy. `host` is the call's: the tool and the bounding
// spill through the same one.
async function hostSteps(
  stage: HostStage,
  host: ToolHost,
  callCtx: ToolDispatchContext,
): Promise<DispatchedCall> {
  const { def, args, ctx, limits, guarded, sideEffecting } = stage;
  // Read before the tool runs: whatever the tool does with its view, the result is bounded
  // through the store the call began with.
  const store = host.outputStore;
  const hostCall = callHost({ tool: def, args, host, ctx: callCtx, sideEffecting });
  const { result: answer, parts } = splitMedia(await commitAction(guarded, hostCall));
  // State keeps the full result; the model may be shown a compact text of it instead.
  const { result, modelView } = splitModelView(answer);
  const output = mapOutput(result, ctx.config);
  const pending = boundResult(modelView, store, limits, ctx.signal);
  return { parts, output, bounded: pending instanceof Promise ? await pending : pending };
}
