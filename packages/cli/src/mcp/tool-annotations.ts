import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { AnyToolDef } from '@toolhost/core';

/**
 * What a client is told of a tool that gives no account of its effect (a plugin or MCP-proxied
 * tool, `mcp_call`, `invoke_agent`): MCP's own defaults, the worst case, said explicitly.
 */
export const UNKNOWN_EFFECT_ANNOTATIONS: ToolAnnotations = Object.freeze({
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
});

/**
 * MCP tool hints from the tool's own `policy.effect`, so a client's prompt matches what the tool
 * does; `openWorldHint` from its egress class. A declaration never outranks the guardrail flags:
 * one that calls a writing, command-running or http/MCP-sending tool read-only is not believed.
 */
export function toolAnnotations(tool: AnyToolDef): ToolAnnotations {
  const { policy } = tool;
  const { effect } = policy;
  if (effect === undefined || (effect.readOnly && changesByFlags(tool))) {
    return { ...UNKNOWN_EFFECT_ANNOTATIONS };
  }
  return {
    readOnlyHint: effect.readOnly,
    // The spec reads these two only when readOnlyHint is false; a read is neither.
    destructiveHint: !effect.readOnly && effect.destructive,
    idempotentHint: effect.readOnly || effect.idempotent,
    openWorldHint: policy.egress !== undefined,
  };
}

// The approval gate's own view of a change: a write, a model-chosen (or gated) command, or a
// request that may change the far side. `git_status` runs fixed read-only subcommands.
function changesByFlags(tool: AnyToolDef): boolean {
  const { policy } = tool;
  const runsChosenCommand =
    policy.spawnsProcess && (tool.policyTarget !== undefined || policy.requiresGateApproval);
  return (
    policy.fsWrite === true ||
    runsChosenCommand ||
    policy.egress === 'http' ||
    policy.egress === 'mcp'
  );
}
