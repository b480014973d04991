import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { AnyToolDef } from '@toolhost/core';

/** MCP tool hints derived from the policy class, so a client's own prompt matches our gate. */
export function toolAnnotations(tool: AnyToolDef): ToolAnnotations {
  const { policy } = tool;
  // A process tool changes things when the model picks the command or a human gate guards it;
  // `git_status` (fixed read-only subcommands, no target) does not — the approval gate's rule.
  const runsChosenCommand =
    policy.spawnsProcess && (tool.policyTarget !== undefined || policy.requiresGateApproval);
  // A web search sends a query but changes nothing; http and MCP calls may change anything.
  const sideEffects =
    policy.fsWrite === true ||
    runsChosenCommand ||
    policy.os === true ||
    policy.egress === 'http' ||
    policy.egress === 'mcp';
  return {
    readOnlyHint: !sideEffects,
    destructiveHint: sideEffects,
    openWorldHint: policy.egress !== undefined,
  };
}
