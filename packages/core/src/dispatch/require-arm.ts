import { refusedBeforeEffect, ToolUnavailableError } from '../errors.js';
import type { ToolId } from '../tool-def.js';

/**
 * Returns a host arm, or throws `ToolUnavailableError` naming it when the host did not wire it:
 * a host/config gap, reported actionably instead of crashing on `undefined`. The refusal is not
 * marked `refusedBeforeEffect`: a tool may look an arm up after an effect of its own.
 */
export function requireArm<Arm>(toolId: ToolId, arm: Arm | undefined, name: string): Arm {
  if (arm === undefined || arm === null) throw new ToolUnavailableError(toolId, name);
  return arm;
}

/**
 * `requireArm` for a dispatcher's first step, before it has done anything: a missing arm is
 * marked `refusedBeforeEffect`, so a journaled call's claim is discarded and the call may run
 * once the host is fixed. The built-in tools' dispatchers use this.
 */
export function requireArmBeforeEffect<Arm>(
  toolId: ToolId,
  arm: Arm | undefined,
  name: string,
): Arm {
  if (arm === undefined || arm === null) {
    throw refusedBeforeEffect(new ToolUnavailableError(toolId, name));
  }
  return arm;
}
