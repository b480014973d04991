import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { createWorkspace, type Workspace } from './workspace.js';

describe('toolhost tools / doctor / serve', () => {
  let ws: Workspace;
  beforeEach(async () => {
    ws = await createWorkspace();
  });
  afterEach(() => ws.cleanup());

  const run = (args: readonly string[]) => runCli([...args, ...ws.stateFlags], { cwd: ws.root });

  it('lists the default grant: the read-only tools', async () => {
    const result = await run(['tools']);

    expect(result.code).toBe(0);
    const ids = result.stdout
      .trim()
      .split('\n')
      .map((line) => line.split(/\s+/)[0]);
    expect(ids).toEqual(['git_status', 'list_directory', 'read_file', 'search_files']);
  });

  it.each([
    ['openai', (out: unknown) => (out as { function: { name: string } }[])[0]?.function.name],
    ['anthropic', (out: unknown) => (out as { name: string }[])[0]?.name],
    [
      'gemini',
      (out: unknown) =>
        (out as { functionDeclarations: { name: string }[] }).functionDeclarations[0]?.name,
    ],
    ['ai-sdk', (out: unknown) => Object.keys(out as object)[0]],
  ])('lowers the granted schemas for %s', async (provider, firstName) => {
    const result = await run(['tools', '--tools', 'read_file', '--provider', provider]);

    expect(result.code).toBe(0);
    expect(firstName(JSON.parse(result.stdout))).toBe('read_file');
  });

  it('grants the workspace tools by name and lowers them strict for OpenAI', async () => {
    const workspace = 'create_directory,edit_file,move_file,search_files';
    const result = await run(['tools', '--tools', workspace, '--provider', 'openai']);

    expect(result.code).toBe(0);
    const lowered = JSON.parse(result.stdout) as {
      function: { name: string; strict: boolean };
    }[];
    expect(lowered.map((tool) => [tool.function.name, tool.function.strict])).toEqual(
      workspace.split(',').map((id) => [id, true]),
    );
  });

  it('serves a workspace tool over MCP and searches through it', async () => {
    const messages = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'cli-test', version: '0' },
        },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: {
          name: 'search_files',
          arguments: { pattern: 'workspace-tool-marker' },
        },
      },
    ];
    await import('node:fs/promises').then((fs) =>
      fs.writeFile(join(ws.root, 'marked.txt'), 'a workspace-tool-marker line\n'),
    );

    const result = await runCli(['serve', '--tools', 'search_files', ...ws.stateFlags], {
      cwd: ws.root,
      input: `${messages.map((message) => JSON.stringify(message)).join('\n')}\n`,
      keepStdinOpenMs: 15_000,
      closeStdinAfterReply: 2,
    });

    expect(result.code).toBe(0);
    const reply = result.stdout
      .trim()
      .split('\n')
      .map(
        (line) => JSON.parse(line) as { id?: number; result?: { content?: { text?: string }[] } },
      )
      .find((message) => message.id === 2);
    expect(reply?.result?.content?.[0]?.text).toContain(
      'marked.txt:1:3: a workspace-tool-marker line',
    );
  });

  it('never shows a config-only parameter in a lowered schema', async () => {
    const result = await run(['tools', '--tools', 'run_command', '--provider', 'anthropic']);

    expect(result.stdout).toContain('"command"');
    expect(result.stdout).not.toContain('timeoutMs');
  });

  it('exits 2 for an unknown provider', async () => {
    const result = await run(['tools', '--provider', 'cohere']);

    expect(result.code).toBe(2);
  });

  it('doctor reports arms, helpers, the effective policy and refusals', async () => {
    const result = await run(['doctor', '--json', '--tools', 'run_command,read_file']);

    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.arms).toMatchObject({ fs: true });
    expect(report.helpers).toHaveProperty('git');
    expect(report.nativeHelpers).toEqual({
      pidNamespace: 'built',
      sandboxNet: 'built',
      fsAt: 'built',
    });
    expect(report.policy).toMatchObject({ mode: 'ask', fsScope: 'sandboxed' });
    const runCommand = report.tools.find((tool: { tool: string }) => tool.tool === 'run_command');
    expect(runCommand.refusals.join(' ')).toMatch(/allowedCommands .* empty/);
  });

  it('says which MCP ids are ambiguous, serving neither, in tools and doctor', async () => {
    const repository = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
    const fixture = join(repository, 'packages/node/src/mcp/test-support/fixture-mcp-server.ts');
    const server = (extra: string) => ({
      command: process.execPath,
      // By path: the server's cwd is the workspace, where no `tsx` package resolves.
      args: ['--import', join(repository, 'node_modules/tsx/dist/loader.mjs'), fixture],
      env: { FIXTURE_EXTRA_TOOL: extra },
      tools: [extra, 'echo'],
      readOnlyPaths: [repository],
    });
    const config = join(ws.root, 'toolhost.config.json');
    await writeFile(
      config,
      JSON.stringify({
        tools: ['mcp_docs_echo'],
        mcpServers: { docs: server('search_query'), docs_search: server('query') },
      }),
    );

    const tools = await run(['tools', '--config', config]);
    const doctor = await run(['doctor', '--json', '--config', config]);

    expect(tools.code).toBe(0);
    expect(
      tools.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(/\s+/)[0]),
    ).toEqual(['mcp_docs_echo']);
    expect(tools.stderr).toContain(
      'mcp_docs_search_query is ambiguous (docs/search_query, docs_search/query): none of them is served',
    );
    expect(doctor.code).toBe(0);
    expect((JSON.parse(doctor.stdout) as { mcpCollisions: string[] }).mcpCollisions).toEqual([
      expect.stringContaining('mcp_docs_search_query is ambiguous'),
    ]);
  });

  it('doctor prints a human report', async () => {
    const result = await run(['doctor']);

    expect(result.code).toBe(0);
    expect(result.stdout).toContain('effective policy:');
    expect(result.stdout).toContain('granted tools:');
    expect(result.stdout).toContain('native:     ✓ pid-namespace  ✓ sandbox-net  ✓ fs-at');
  });
});

describe('toolhost serve', () => {
  let ws: Workspace;
  beforeEach(async () => {
    ws = await createWorkspace();
  });
  afterEach(() => ws.cleanup());

  it('answers an MCP initialize on stdio and exits 0 when the client hangs up', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'cli-test', version: '0' },
      },
    };
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
    const input = [initialize, { jsonrpc: '2.0', method: 'notifications/initialized' }, list]
      .map((message) => JSON.stringify(message))
      .join('\n');

    const result = await runCli(['serve', ...ws.stateFlags], {
      cwd: ws.root,
      input: `${input}\n`,
      keepStdinOpenMs: 15_000,
      closeStdinAfterReply: 2,
    });

    expect(result.code).toBe(0);
    const replies = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id?: number; result?: { tools?: { name: string }[] } });
    const tools = replies.find((reply) => reply.id === 2)?.result?.tools ?? [];
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'git_status',
      'list_directory',
      'read_file',
      'search_files',
    ]);
  });

  it('audits the calls an MCP client makes with --audit-log', async () => {
    const log = join(ws.root, '..', 'serve-audit.jsonl');
    const messages = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 't', version: '0' },
        },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'read_file', arguments: { path: 'notes.txt' } },
      },
    ];

    const result = await runCli(['serve', '--audit-log', log, ...ws.stateFlags], {
      cwd: ws.root,
      input: `${messages.map((message) => JSON.stringify(message)).join('\n')}\n`,
      keepStdinOpenMs: 15_000,
      closeStdinAfterReply: 2,
    });

    expect(result.code).toBe(0);
    const events = (await readFile(log, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event: string; toolId: string });
    expect(events.map((event) => [event.event, event.toolId])).toEqual([
      ['tool_call', 'read_file'],
      ['tool_result', 'read_file'],
    ]);
  });
});
