// A grant naming a tool nobody has is a typo to refuse, not a tool to silently drop.
import type { AnyToolDef } from '@toolhost/core';
import type { NodeToolHostHandle } from '@toolhost/node/host';
import { UnknownGrantError } from '../cli-error.js';
import type { EffectiveSettings } from '../config/resolve-settings.js';

/**
 * Throws `UnknownGrantError` when the grant names an id no tool has; closes the host (and its
 * servers) first.
 */
export async function refuseUnknownGrant(
  settings: EffectiveSettings,
  tools: readonly AnyToolDef[],
  created: NodeToolHostHandle,
): Promise<void> {
  // After discovery, so a discovered MCP tool is known. A server that failed to connect cannot
  // say which of its tools exist: ids under its prefix stay unavailable (its report says why),
  // not unknown.
  const known = new Set(tools.map((tool) => tool.id));
  const undiscoverable = (created.mcpReport?.servers ?? [])
    .filter((server) => server.status === 'failed')
    .map((server) => `mcp_${server.name}_`.replace(/[^A-Za-z0-9_-]/g, '_'));
  const unknown = settings.grant.filter(
    (id) => !known.has(id) && !undiscoverable.some((prefix) => id.startsWith(prefix)),
  );
  if (unknown.length === 0) return;
  await created.close();
  throw new UnknownGrantError(unknown, [...known].sort(), settings.grantSource);
}
