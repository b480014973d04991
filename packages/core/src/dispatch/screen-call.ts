import type {
  ToolActionClass,
  ToolDispatchContext,
  ToolResultLimits,
} from '../dispatch-context.js';
import type { PolicyTarget } from '../tool-def.js';
import type { ToolHost } from '../tool-host.js';
import { assembleArgs } from './assemble-args.js';
import { checkGrant } from './check-grant.js';
import { checkInputProvenance } from './check-input-provenance.js';
import { checkSecretArgs } from './check-secret-args.js';
import { enforcePolicy } from './enforce-policy.js';
import { governedAction } from './governed-action.js';
import { isReadOnlyCall } from './is-read-only-call.js';
import { policyTargetOf } from './policy-target-of.js';
import type { RegisteredTool } from './registered-tool.js';
import { rejectProviderExecuted } from './reject-provider-executed.js';
import { resolveLimits } from './resolve-limits.js';
import { resolveTool } from './resolve-tool.js';
import type { ToolCall } from './tool-call.js';
import { validateArgs } from './validate-args.js';

/** A call every check before consent let through, with what the later steps judge it by. */
export interface ScreenedCall {
  readonly tool: RegisteredTool;
  readonly args: unknown;
  /** Copied and frozen once: guard, approval and admission see this same value. */
  readonly target: PolicyTarget | undefined;
  /** The governed class; `undefined` ⇒ no guard, no approval. */
  readonly action: ToolActionClass | undefined;
  /** The args made this call a read (`policy.readOnlyWhen`): not governed, journaled or an effect. */
  readonly readOnly: boolean;
  /** The top-level keys `secretArgKeys` taints (nested paths mapped to their parent): hidden. */
  readonly secretKeys: ReadonlySet<string>;
  /** `ctx.limits` checked and merged over the defaults, before anything runs. */
  readonly limits: ToolResultLimits;
}

/**
 * Steps 1–5, synchronous and side-effect free, shared by `dispatch` and `preflight` so a call
 * the preflight passes is judged by exactly the code dispatch runs. The order is the spec's;
 * the host's own judgement of a governed target closes it, so every refusal that needs no
 * person comes before the guard and the human.
 */
export function screenCall(
  tools: ReadonlyMap<string, RegisteredTool>,
  host: ToolHost,
  call: ToolCall,
  ctx: ToolDispatchContext,
): ScreenedCall {
  rejectProviderExecuted(call);
  const tool = resolveTool(tools, call.name, ctx.grantedToolIds);
  const { def } = tool;
  checkGrant(def.id, ctx.grantedToolIds);
  const limits = resolveLimits(def.id, ctx.limits);
  const effective = assembleArgs(tool, call.args, ctx.config);
  checkInputProvenance(def.id, ctx.config, ctx.secretArgKeys);
  const secretKeys = checkSecretArgs(tool, effective, ctx.secretArgKeys);
  const args = validateArgs(def, effective);
  const target = policyTargetOf(def, args);
  enforcePolicy(def, target, ctx);
  // Decided once, here: preflight, the guard, approval and the journal all read this answer.
  const readOnly = isReadOnlyCall(def, args);
  const action = readOnly ? undefined : governedAction(def, target);
  if (action !== undefined && target !== undefined) {
    host.preflight?.({ toolId: def.id, action, target });
  }
  return { tool, args, target, action, readOnly, secretKeys, limits };
}
