import {
  BUILTIN_TOOLS,
  createToolRegistry,
  type AnyToolDef,
  type ToolDispatchContext,
  type ToolId,
  type ToolRegistry,
} from '@toolhost/core';
import { createNodeToolHost, type NodeToolHostHandle } from '@toolhost/node';

/** A real registry of the built-ins (and any extra tools) on a real Node host over `root`. */
export async function createRealRegistry(
  workspace: { readonly root: string; readonly stateDir: string },
  extraTools: readonly AnyToolDef[] = [],
): Promise<{ registry: ToolRegistry; handle: NodeToolHostHandle }> {
  const { root, stateDir } = workspace;
  const handle = await createNodeToolHost({ root, stateDir, fsScope: 'project' });
  const registry = createToolRegistry({
    tools: [...BUILTIN_TOOLS, ...extraTools],
    host: handle.host,
  });
  return { registry, handle };
}

/** A dispatch context granting `toolIds` in the project tier, nothing else. */
export function grantContext(
  toolIds: readonly ToolId[],
  extra: Partial<ToolDispatchContext> = {},
): ToolDispatchContext {
  return {
    nodeId: 'otel-test',
    grantedToolIds: new Set(toolIds),
    config: {},
    toolPolicy: {},
    fsScope: 'project',
    gateApproved: false,
    ...extra,
  };
}
