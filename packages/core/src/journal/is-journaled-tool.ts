import type { AnyToolDef } from '../tool-def.js';

/**
 * Whether a call of `tool` goes through the durable effect bracket: `policy.journal` decides
 * when set; else every side-effecting tool (fs write, process, egress, os) does and a read does
 * not. Only an explicit `'none'` opts out, so an unreadable value journals (fail closed).
 */
export function isJournaledTool({ policy }: AnyToolDef): boolean {
  const { journal } = policy;
  if (journal === 'none') return false;
  if (journal !== undefined) return true;
  return (
    policy.fsWrite === true ||
    policy.spawnsProcess ||
    policy.egress !== undefined ||
    policy.os === true
  );
}
