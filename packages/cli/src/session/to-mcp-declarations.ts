import type { DeclaredValue, McpServerDeclaration, SandboxNetworkOptions } from '@toolhost/node';
import type { McpServerConfig } from '../config/config-schema.js';

/** Config `mcpServers` → the MCP arm's declarations; a named credential becomes a `credentialRef`. */
export function toMcpDeclarations(
  servers: Readonly<Record<string, McpServerConfig>>,
): Record<string, McpServerDeclaration> {
  return Object.fromEntries(
    Object.entries(servers).map(([name, server]) => [name, toDeclaration(server)]),
  );
}

function toDeclaration(server: McpServerConfig): McpServerDeclaration {
  const common = {
    ...(server.tools === undefined ? {} : { tools: server.tools }),
    ...(server.callTimeoutMs === undefined ? {} : { callTimeoutMs: server.callTimeoutMs }),
  };
  if ('command' in server) {
    return {
      transport: 'stdio',
      command: server.command,
      ...(server.args === undefined ? {} : { args: server.args }),
      ...(server.env === undefined ? {} : { env: toDeclaredValues(server.env) }),
      ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
      ...(server.sandbox === undefined ? {} : { sandbox: server.sandbox }),
      ...(server.network === undefined ? {} : { network: toNetwork(server.network) }),
      ...(server.readOnlyPaths === undefined ? {} : { readOnlyPaths: server.readOnlyPaths }),
      ...(server.readWritePaths === undefined ? {} : { readWritePaths: server.readWritePaths }),
      ...common,
    };
  }
  return {
    transport: 'http',
    url: server.url,
    ...(server.headers === undefined ? {} : { headers: toDeclaredValues(server.headers) }),
    ...(server.allowLocal === undefined ? {} : { allowLocal: server.allowLocal }),
    ...common,
  };
}

// The parsed config spells an absent cap as `undefined`; the declaration leaves it out.
function toNetwork(network: {
  readonly allowedDomains: readonly string[];
  readonly maxConnectionsPerSandbox?: number | undefined;
}): SandboxNetworkOptions {
  const { allowedDomains, maxConnectionsPerSandbox } = network;
  return {
    allowedDomains,
    ...(maxConnectionsPerSandbox === undefined ? {} : { maxConnectionsPerSandbox }),
  };
}

function toDeclaredValues(
  values: Readonly<Record<string, string | { readonly credential: string }>>,
): Record<string, DeclaredValue> {
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [
      key,
      typeof value === 'string' ? value : { credentialRef: value.credential },
    ]),
  );
}
