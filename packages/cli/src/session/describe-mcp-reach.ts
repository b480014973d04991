import type { SandboxMode } from '@toolhost/node';
import type { EffectiveSettings } from '../config/resolve-settings.js';

/** What one stdio MCP server may reach, from its config entry; no server is started to say it. */
export interface McpServerReach {
  readonly server: string;
  readonly sandbox: SandboxMode;
  /** `host`: the sandbox is off, so whatever the user's own network reaches. */
  readonly network: 'none' | 'host' | { readonly allowedDomains: readonly string[] };
  /** Beyond the workspace view every sandboxed server gets. */
  readonly readOnlyPaths: readonly string[];
  readonly readWritePaths: readonly string[];
}

/** One entry per stdio server, in config order; an HTTP server is reached by the host itself. */
export function describeMcpReach(settings: EffectiveSettings): McpServerReach[] {
  const reach: McpServerReach[] = [];
  for (const [server, config] of Object.entries(settings.mcpServers)) {
    if (!('command' in config)) continue;
    // The session hands MCP the CLI's mode, so an entry without its own follows the commands'.
    const sandbox = config.sandbox ?? settings.sandbox;
    const domains = config.network?.allowedDomains ?? [];
    reach.push({
      server,
      sandbox,
      network:
        sandbox === 'off' ? 'host' : domains.length === 0 ? 'none' : { allowedDomains: domains },
      readOnlyPaths: sandbox === 'off' ? [] : (config.readOnlyPaths ?? []),
      readWritePaths: sandbox === 'off' ? [] : (config.readWritePaths ?? []),
    });
  }
  return reach;
}
