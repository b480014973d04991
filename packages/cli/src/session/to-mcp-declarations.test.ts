import { describe, expect, it } from 'vitest';
import { toMcpDeclarations } from './to-mcp-declarations.js';

describe('toMcpDeclarations', () => {
  it('maps a stdio server and turns a named credential into a credentialRef', () => {
    const declarations = toMcpDeclarations({
      docs: {
        command: 'docs-server',
        args: ['--stdio'],
        env: { MODE: 'ro', TOKEN: { credential: 'docs' } },
      },
    });

    expect(declarations['docs']).toEqual({
      transport: 'stdio',
      command: 'docs-server',
      args: ['--stdio'],
      env: { MODE: 'ro', TOKEN: { credentialRef: 'docs' } },
    });
  });

  it("passes a stdio server's sandbox and allowance on unchanged", () => {
    const declarations = toMcpDeclarations({
      api: {
        command: 'api-server',
        sandbox: 'off',
        network: { allowedDomains: ['api.example.com'], maxConnectionsPerSandbox: 32 },
        readOnlyPaths: ['/opt/api'],
        readWritePaths: ['/var/cache/api'],
      },
    });

    expect(declarations['api']).toEqual({
      transport: 'stdio',
      command: 'api-server',
      sandbox: 'off',
      network: { allowedDomains: ['api.example.com'], maxConnectionsPerSandbox: 32 },
      readOnlyPaths: ['/opt/api'],
      readWritePaths: ['/var/cache/api'],
    });
  });

  it('maps an http server with its headers and allowLocal', () => {
    const declarations = toMcpDeclarations({
      remote: {
        url: 'http://127.0.0.1:8931/mcp',
        headers: { authorization: { credential: 'remote' } },
        allowLocal: '127.0.0.1:8931',
        tools: ['search'],
      },
    });

    expect(declarations['remote']).toEqual({
      transport: 'http',
      url: 'http://127.0.0.1:8931/mcp',
      headers: { authorization: { credentialRef: 'remote' } },
      allowLocal: '127.0.0.1:8931',
      tools: ['search'],
    });
  });
});
