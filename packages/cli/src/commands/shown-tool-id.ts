import type { ToolRegistry } from '@toolhost/core';
import { UNKNOWN_TOOL } from '@toolhost/core/dispatch';

/**
 * The tool a log line or the page names for a call: its registered id, or the fixed
 * `(unknown tool)`. A name the registry does not know was chosen by the model (or its prompt's
 * author) and is never echoed, however plain it looks: `ghp_…` is a plain identifier too.
 */
export function shownToolId(registry: ToolRegistry, name: unknown): string {
  return typeof name === 'string' && registry.get(name) !== undefined ? name : UNKNOWN_TOOL;
}
