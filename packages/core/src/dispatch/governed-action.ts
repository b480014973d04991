import type { ToolActionClass } from '../dispatch-context.js';
import type { AnyToolDef, PolicyTarget } from '../tool-def.js';

/**
 * The approval class of a dispatch, or `undefined` when it is not governed. A process counts
 * only when its command is model-controlled (it has a target command), so the config-pinned
 * `git_status` is not gated.
 */
export function governedAction(
  tool: AnyToolDef,
  target: PolicyTarget | undefined,
): ToolActionClass | undefined {
  const { policy } = tool;
  if (policy.fsWrite === true) return 'fs_write';
  if (policy.egress !== undefined) return 'egress';
  if (policy.os === true) return 'os';
  if (policy.spawnsProcess && target?.command !== undefined) return 'process';
  return undefined;
}
