import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../config/resolve-settings.js';
import { describeMcpReach } from './describe-mcp-reach.js';

const settingsWith = (sandbox: 'required' | 'off') =>
  resolveSettings(
    '/w/app',
    {
      config: {
        mcpServers: {
          docs: {
            command: 'docs-server',
            network: { allowedDomains: ['api.example.com'] },
            readOnlyPaths: ['/opt/docs'],
          },
          local: { command: 'local-server', sandbox: 'off' },
          remote: { url: 'https://mcp.example.com/mcp' },
        },
      },
    },
    { sandbox },
  );

describe('describeMcpReach', () => {
  it('lists each stdio server with its own allowance under the session mode', () => {
    const reach = describeMcpReach(settingsWith('required'));

    expect(reach).toEqual([
      {
        server: 'docs',
        sandbox: 'required',
        network: { allowedDomains: ['api.example.com'] },
        readOnlyPaths: ['/opt/docs'],
        readWritePaths: [],
      },
      { server: 'local', sandbox: 'off', network: 'host', readOnlyPaths: [], readWritePaths: [] },
    ]);
  });

  it('says every server runs on the host when the session sandbox is off', () => {
    const reach = describeMcpReach(settingsWith('off'));

    expect(reach.map((entry) => [entry.server, entry.sandbox, entry.network])).toEqual([
      ['docs', 'off', 'host'],
      ['local', 'off', 'host'],
    ]);
  });
});
