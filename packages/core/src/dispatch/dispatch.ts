import type { ToolDispatchContext } from '../dispatch-context.js';
import type { AnyToolDef } from '../tool-def.js';
import type { ToolHost } from '../tool-host.js';
import { splitMedia } from '../with-media.js';
import { throwIfAborted } from './abort.js';
import { admitDispatch } from './admit-dispatch.js';
import { assembleArgs } from './assemble-args.js';
import { boundResult } from './bound-result.js';
import { brandUntrusted } from './brand-untrusted.js';
import { callHost } from './call-host.js';
import { checkGrant } from './check-grant.js';
import { checkSecretArgs } from './check-secret-args.js';
import { enforcePolicy } from './enforce-policy.js';
import { governedAction } from './governed-action.js';
import { mapOutput } from './map-output.js';
import { policyTargetOf } from './policy-target-of.js';
import { projectEvents } from './project-events.js';
import type { RegisteredTool } from './registered-tool.js';
import { rejectProviderExecuted } from './reject-provider-executed.js';
import { requestApproval } from './request-approval.js';
import { resolveTool } from './resolve-tool.js';
import type { ToolCall, ToolDispatchOutcome } from './tool-call.js';
import { validateArgs } from './validate-args.js';
import { withinCall } from './within-call.js';

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
  rejectProviderExecuted(call);
  const tool = resolveTool(tools, call.name);
  const { def } = tool;
  checkGrant(def.id, ctx.grantedToolIds);
  const effective = assembleArgs(tool, call.args, ctx.config);
  checkSecretArgs(def.id, effective, ctx.secretArgKeys);
  const args = validateArgs(def, effective);
  const target = policyTargetOf(def, args);
  enforcePolicy(def, target, ctx);
  const action = governedAction(def, target);
  if (action !== undefined && ctx.approval !== undefined) {
    await requestApproval({
      toolId: def.id,
      action,
      target,
      approval: ctx.approval,
      signal: ctx.signal,
    });
  }
  throwIfAborted(ctx.signal, def.id);
  admitDispatch(def.id, target, ctx.beforeDispatch);
  const sideEffecting = action !== undefined || hasSideEffect(def);
  const { parts, output, bounded } = await withinCall(host.outputStore, async () => {
    const { result, parts } = splitMedia(
      await callHost({ tool: def, args, host, ctx, sideEffecting }),
    );
    const output = mapOutput(result, ctx.config);
    const pending = boundResult(result, host.outputStore, ctx);
    return { parts, output, bounded: pending instanceof Promise ? await pending : pending };
  });
  throwIfAborted(ctx.signal, def.id);
  const hiddenKeys = hiddenKeysOf(tool, ctx.secretArgKeys);
  const events = projectEvents({ toolId: def.id, args, hiddenKeys, modelResult: bounded.result });
  return brandUntrusted({ toolCallId: call.id, toolId: def.id, bounded, output, parts, events });
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

function hiddenKeysOf(
  tool: RegisteredTool,
  secretArgKeys: ReadonlySet<string> | undefined,
): ReadonlySet<string> {
  if (secretArgKeys === undefined || secretArgKeys.size === 0) return tool.configOnly;
  return new Set([...tool.configOnly, ...secretArgKeys]);
}
