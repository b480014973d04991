// Which host arms a session builds: an arm no dispatchable tool uses never loads its code.
import type { ToolId } from '@toolhost/core';
import type { EffectiveSettings } from '../config/resolve-settings.js';
import { LOCAL_TOOLS } from './local-tools.js';

/** The host arms a session needs besides fs; each one is built only when true. */
export interface SessionArms {
  readonly egress: boolean;
  readonly process: boolean;
  readonly os: boolean;
}

/** The arms the `dispatchable` tools use; every arm when the session may dispatch anything. */
export function armsFor(dispatchable: readonly ToolId[] | undefined): SessionArms {
  // From the tools' own policy classes, so a new tool needs no list here.
  if (dispatchable === undefined) return { egress: true, process: true, os: true };
  const policies = LOCAL_TOOLS.filter((tool) => dispatchable.includes(tool.id)).map(
    (tool) => tool.policy,
  );
  return {
    egress: policies.some((policy) => policy.egress === 'http' || policy.egress === 'search'),
    process: policies.some((policy) => policy.spawnsProcess),
    os: policies.some((policy) => policy.os === true),
  };
}

/** Whether the grant can reach an MCP server: `call read_file` must not spawn every server. */
export function needsMcp(settings: EffectiveSettings): boolean {
  if (Object.keys(settings.mcpServers).length === 0) return false;
  return settings.grant.some((id) => id === 'mcp_call' || id.startsWith('mcp_'));
}
