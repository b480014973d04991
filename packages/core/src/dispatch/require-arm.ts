import { ToolUnavailableError } from '../errors.js';
import type { ToolId } from '../tool-def.js';

/**
 * Returns a host arm, or throws `ToolUnavailableError` naming it when the host did not wire it:
 * a host/config gap, reported actionably instead of crashing on `undefined`.
 */
export function requireArm<Arm>(toolId: ToolId, arm: Arm | undefined, name: string): Arm {
  if (arm === undefined || arm === null) throw new ToolUnavailableError(toolId, name);
  return arm;
}
