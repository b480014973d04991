import type { ToolActionClass, ToolActionPreview, ToolId } from '@toolhost/core';

/** The session's `always` answers: per tool, or per tool and exact target. In memory only. */
export class ApprovalCache {
  readonly #tools = new Set<ToolId>();
  readonly #targets = new Set<string>();

  /** Remembers "always for this tool". */
  allowTool(toolId: ToolId): void {
    this.#tools.add(toolId);
  }

  /** Remembers "always for this target" (path, command, host, or MCP server and tool). */
  allowTarget(toolId: ToolId, action: ToolActionClass, target: ToolActionPreview): void {
    this.#targets.add(targetKey(toolId, action, target));
  }

  /** True when an earlier `always` covers this call; a protected target ignores tool-wide answers. */
  allows(
    toolId: ToolId,
    action: ToolActionClass,
    target: ToolActionPreview,
    protectedTarget: boolean,
  ): boolean {
    if (this.#targets.has(targetKey(toolId, action, target))) return true;
    return !protectedTarget && this.#tools.has(toolId);
  }
}

// NUL-separated so no target can forge another tool's key.
function targetKey(toolId: ToolId, action: ToolActionClass, target: ToolActionPreview): string {
  // A move's destination is part of its target: "always a → b" never allows a → elsewhere; an
  // MCP call's server and tool are too, so "always" for one MCP tool never allows another. A
  // write's content is not: "always for this path" means whatever is written there.
  return [
    toolId,
    action,
    target.path ?? '',
    target.command ?? '',
    target.host ?? '',
    target.destination ?? '',
    target.server ?? '',
    target.tool ?? '',
  ].join('\0');
}
