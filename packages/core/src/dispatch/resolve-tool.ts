import { UnknownToolError } from '../errors.js';
import type { ToolId } from '../tool-def.js';
import type { RegisteredTool } from './registered-tool.js';

/**
 * Step 2a: finds a tool by exact id: never by prefix, case or nearest name. A miss lists only
 * the ids the node is granted: naming an ungranted tool would invite a call that fails fatally.
 */
export function resolveTool(
  tools: ReadonlyMap<string, RegisteredTool>,
  name: unknown,
  grantedToolIds: ReadonlySet<ToolId>,
): RegisteredTool {
  // A Map, not an object, so `constructor` or `__proto__` resolve to nothing.
  const tool = typeof name === 'string' ? tools.get(name) : undefined;
  if (tool === undefined) {
    const available = [...tools.keys()].filter((id) => grantedToolIds.has(id));
    throw new UnknownToolError(typeof name === 'string' ? name : '', available);
  }
  return tool;
}
