import { ToolPolicyError } from '../errors.js';
import type { ToolId } from '../tool-def.js';

/** Step 2b: registered is not granted; only the node's narrowed grant authorises a call. */
export function checkGrant(toolId: ToolId, grantedToolIds: ReadonlySet<ToolId>): void {
  if (!grantedToolIds.has(toolId)) throw new ToolPolicyError(toolId, 'not_granted');
}
