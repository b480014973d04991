import type { ToolActionClass } from '../dispatch-context.js';
import type { AnyToolDef } from '../tool-def.js';

/**
 * The governed action class the per-tool approval gate asks about, or `undefined` for a tool it
 * never gates. Same derivation as the pipeline's `governedAction`, decided per tool rather than per call, so an SDK's own approval prompt (AI SDK
 * `needsApproval`, OpenAI Agents interruptions) covers exactly the calls toolhost would gate.
 */
export function approvalActionClass(tool: AnyToolDef): ToolActionClass | undefined {
  const { policy } = tool;
  if (policy.fsWrite === true) return 'fs_write';
  if (policy.egress !== undefined) return 'egress';
  if (policy.os === true) return 'os';
  // Only a model-controlled command is gated: the pre-approved `git_status` exposes none.
  if (policy.spawnsProcess && tool.policyTarget !== undefined) return 'process';
  return undefined;
}
