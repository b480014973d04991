import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { ToolPolicyClass } from '@toolhost/core';

/** MCP tool hints derived from the policy class, so a client's own prompt matches our gate. */
export function toolAnnotations(policy: ToolPolicyClass): ToolAnnotations {
  // A web search sends a query but changes nothing; http and MCP calls may change anything.
  const sideEffects =
    policy.fsWrite === true ||
    policy.spawnsProcess ||
    policy.os === true ||
    policy.egress === 'http' ||
    policy.egress === 'mcp';
  return {
    readOnlyHint: !sideEffects,
    destructiveHint: sideEffects,
    openWorldHint: policy.egress !== undefined,
  };
}
