import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { approveConfig, REPO_ROOT, runCli } from './run-cli.js';
import { createWorkspace, type Workspace } from './workspace.js';

const FIXTURE_MCP_SERVER = fileURLToPath(
  new URL('../../node/src/mcp/test-support/fixture-mcp-server.ts', import.meta.url),
);

describe('a grant naming an unknown tool id', () => {
  let ws: Workspace;
  beforeEach(async () => {
    ws = await createWorkspace();
  });
  afterEach(() => ws.cleanup());

  const run = (args: readonly string[]) =>
    runCli([...args, ...ws.stateFlags], { cwd: ws.root, timeoutMs: 30_000 });

  it.each([
    ['serve', ['serve']],
    ['call', ['call', 'read_file', '{"path":"notes.txt"}']],
    ['tools', ['tools']],
  ])(
    'refuses --tools with a typo under %s, naming the unknown id and the known ones',
    async (_command, args) => {
      const result = await run([...args, '--tools', 'read_file,write_fle']);

      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        'toolhost: --tools names an unknown tool: write_fle; available: ',
      );
      expect(result.stderr).toMatch(/available: [a-z_, ]*\bwrite_file\b/);
      expect(result.stdout).toBe('');
    },
  );

  it('refuses a typo in the config file\'s "tools" before serving', async () => {
    await ws.write('toolhost.config.json', '{"tools": ["read_file", "write_fle", "lst_dir"]}');
    await approveConfig(ws);

    const result = await run(['serve']);

    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'toolhost: "tools" in the config names unknown tools: write_fle, lst_dir; available: ',
    );
    expect(result.stderr).not.toContain('toolhost serve: ');
  });

  it('reports the unknown id in --json as a usage error', async () => {
    const result = await run(['tools', '--tools', 'nope', '--json']);

    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({
      ok: false,
      exitCode: 2,
      error: { code: 'usage', name: 'UnknownGrantError' },
    });
  });

  it('counts a discovered MCP tool as known and refuses a typo of it', async () => {
    await ws.write(
      'toolhost.config.json',
      JSON.stringify({
        mcpServers: {
          fx: {
            command: process.execPath,
            args: ['--import', `${REPO_ROOT}node_modules/tsx/dist/loader.mjs`, FIXTURE_MCP_SERVER],
            sandbox: 'off',
          },
        },
      }),
    );
    await approveConfig(ws);

    const known = await run(['tools', '--tools', 'mcp_fx_echo']);
    const typo = await run(['tools', '--tools', 'mcp_fx_echo,mcp_fx_ecko']);

    // The fixture lists `dup.name` and `dup_name`: one id, so neither is served, and it says so.
    expect(known.stderr).toBe(
      'toolhost tools: mcp: mcp_fx_dup_name is ambiguous (fx/dup.name, fx/dup_name): none of them is served; rename a server to tell them apart\n',
    );
    expect(known.code).toBe(0);
    expect(known.stdout).toMatch(/^mcp_fx_echo {2}/m);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('--tools names an unknown tool: mcp_fx_ecko; available: ');
    expect(typo.stderr).toContain('mcp_fx_echo');
  });

  it('leaves the ids of a server that failed to connect unavailable, not unknown', async () => {
    await ws.write(
      'toolhost.config.json',
      '{"tools": ["read_file", "mcp_docs_search"], "mcpServers": {"docs": {"command": "no-such-docs-server", "sandbox": "off"}}}',
    );
    await approveConfig(ws);

    const result = await run(['tools']);

    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^read_file {2}/m);
  });

  it('lets doctor report an unknown id instead of refusing', async () => {
    const result = await run(['doctor', '--tools', 'read_file,write_fle']);

    expect(result.stdout).toContain('granted but not registered: write_fle');
  });
});
