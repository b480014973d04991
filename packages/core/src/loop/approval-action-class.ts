import type { ToolActionClass } from '../dispatch-context.js';
import { governedAction } from '../dispatch/governed-action.js';
import type { AnyToolDef } from '../tool-def.js';

/**
 * The governed action class the per-tool approval gate asks about, or `undefined` for a tool it
 * never gates: the pipeline's `governedAction`, decided per tool rather than per call, so an
 * SDK's own approval prompt (AI SDK `needsApproval`, OpenAI Agents interruptions) covers exactly
 * the calls toolhost would gate. A tool that declares a target is judged as naming a command
 * (model-controlled); the pre-approved `git_status` declares none.
 */
export function approvalActionClass(tool: AnyToolDef): ToolActionClass | undefined {
  return governedAction(tool, tool.policyTarget === undefined ? undefined : { command: '' });
}
