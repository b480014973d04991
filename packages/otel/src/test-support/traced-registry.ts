import {
  BUILTIN_TOOLS,
  createToolRegistry,
  type AnyToolDef,
  type ToolDispatchContext,
  type ToolId,
  type ToolRegistry,
} from '@toolhost/core';
import { createNodeToolHost, type NodeToolHostHandle } from '@toolhost/node';

/** A real Node host over `root` in the project tier, its state dir beside it. */
export function openProjectHost(workspace: {
  readonly root: string;
  readonly stateDir: string;
}): Promise<NodeToolHostHandle> {
  const { root, stateDir } = workspace;
  return createNodeToolHost({ root, stateDir, fsScope: 'project' });
}

/** A real registry of the built-ins (and any extra tools) on a host. */
export function createRealRegistry(
  handle: NodeToolHostHandle,
  extraTools: readonly AnyToolDef[] = [],
): ToolRegistry {
  return createToolRegistry({ tools: [...BUILTIN_TOOLS, ...extraTools], host: handle.host });
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
