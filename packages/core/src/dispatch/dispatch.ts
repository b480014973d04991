import type { ToolDispatchContext } from '../dispatch-context.js';
import type { AnyToolDef } from '../tool-def.js';
import type { ToolHost } from '../tool-host.js';
import { throwIfAborted } from './abort.js';
import { brandUntrusted } from './brand-untrusted.js';
import { gateGoverned } from './gate-governed.js';
import type { HostStage } from './host-stage.js';
import { journalBracket } from './journal-bracket.js';
import { projectEvents } from './project-events.js';
import type { RegisteredTool } from './registered-tool.js';
import { screenCall } from './screen-call.js';
import type { ToolCall, ToolDispatchOutcome } from './tool-call.js';

/** The registry's state, built once by `createToolRegistry`. */
export interface RegistryState {
  readonly tools: ReadonlyMap<string, RegisteredTool>;
  readonly host: ToolHost;
}

/** Runs one tool call; the order of these lines is the security order of the spec. */
export async function dispatch(
  { tools, host }: RegistryState,
  call: ToolCall,
  ctx: ToolDispatchContext,
): Promise<ToolDispatchOutcome> {
  // Steps 1–5 are `preflight`'s, run by the same code: nothing after them may refuse less.
  const screened = screenCall(tools, host, call, ctx);
  const { tool, args, target, action, readOnly, limits } = screened;
  const { def } = tool;
  const guarded = action === undefined ? undefined : await gateGoverned(screened, ctx);
  throwIfAborted(ctx.signal, def.id);
  const sideEffecting = action !== undefined || (!readOnly && hasSideEffect(def));
  // Steps 5–8 (`beforeDispatch`, the one host call, media split, output mapping, bounding:
  // host-stage.ts) inside the durable effect bracket: a journaled call is prepared before them
  // and settled after, or replayed from its record instead of them.
  const stage: HostStage = { def, args, target, host, ctx, limits, guarded, sideEffecting };
  const bracket = { tool: def, callId: call.id, args, ctx, readOnly };
  const { parts, output, bounded, journal } = await journalBracket(bracket, stage);
  throwIfAborted(ctx.signal, def.id);
  const hiddenKeys = hiddenKeysOf(tool, screened.secretKeys);
  const events = projectEvents({
    toolId: def.id,
    args,
    hiddenKeys,
    modelResult: bounded.result,
    // Bounded here, its media already replaced; a replayed record comes from outside.
    mediaChecked: journal?.status !== 'replayed',
  });
  return brandUntrusted({
    toolCallId: call.id,
    toolId: def.id,
    bounded,
    output,
    parts,
    events,
    journal,
  });
}

// Anything that writes, spawns, sends or touches the OS is never retried within the turn.
function hasSideEffect({ policy }: AnyToolDef): boolean {
  return (
    policy.fsWrite === true ||
    policy.spawnsProcess ||
    policy.egress !== undefined ||
    policy.os === true
  );
}

function hiddenKeysOf(tool: RegisteredTool, secretKeys: ReadonlySet<string>): ReadonlySet<string> {
  if (secretKeys.size === 0) return tool.configOnly;
  return new Set([...tool.configOnly, ...secretKeys]);
}
