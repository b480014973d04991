import { UnknownToolError } from '../errors.js';
import type { RegisteredTool } from './registered-tool.js';

/** Step 2a: finds a tool by exact id: never by prefix, case or nearest name. */
export function resolveTool(
  tools: ReadonlyMap<string, RegisteredTool>,
  name: unknown,
): RegisteredTool {
  // A Map, not an object, so `constructor` or `__proto__` resolve to nothing.
  const tool = typeof name === 'string' ? tools.get(name) : undefined;
  if (tool === undefined)
    throw new UnknownToolError(typeof name === 'string' ? name : '', [...tools.keys()]);
  return tool;
}
