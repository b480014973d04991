import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolPolicyError } from '@toolhost/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFailure } from './commands/describe-failure.js';
import { connectServe, type ServeClient } from './mcp/test-support/serve-client.js';
import { errorMeta, textOf } from './mcp/test-support/tool-result-parts.js';

// The node package's fixture server (paths are data here, not an import of its code).
const FIXTURE_MCP_SERVER = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../node/src/mcp/test-support/fixture-mcp-server.ts',
);
// The repository (sources and node_modules with tsx): what the sandboxed fixture must read.
const REPOSITORY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

// End to end: the SDK's own Client over stdio against a real `toolhost serve` process.
describe('toolhost serve over stdio', () => {
  let sandbox = '';
  let root = '';
  const serverArgs = (...extra: string[]) => [
    '--root',
    root,
    '--state-dir',
    path.join(sandbox, 'state'),
    ...extra,
  ];
  beforeAll(async () => {
    sandbox = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-serve-')));
    root = path.join(sandbox, 'app');
    await mkdir(root);
    await writeFile(path.join(root, 'hello.txt'), 'hello from the root\n');
    await writeFile(path.join(root, 'big.txt'), 'line\n'.repeat(200_000));
  });
  afterAll(() => rm(sandbox, { recursive: true, force: true }));

  describe('in ask mode with a client that cannot elicit', () => {
    let serve: ServeClient;
    beforeAll(async () => {
      serve = await connectServe(serverArgs('--tools', 'read_file,write_file,list_directory'));
    });
    afterAll(() => serve.close());

    it('lists exactly the granted tools with hints from their policy class', async () => {
      const { tools } = await serve.client.listTools();

      expect(tools.map((tool) => [tool.name, tool.annotations?.readOnlyHint])).toEqual([
        ['list_directory', true],
        ['read_file', true],
        ['write_file', false],
      ]);
      expect(tools.find((tool) => tool.name === 'read_file')?.inputSchema).toMatchObject({
        type: 'object',
        required: ['path'],
      });
    });

    it('runs a read through the pipeline and returns its text', async () => {
      const result = await serve.client.callTool({
        name: 'read_file',
        arguments: { path: 'hello.txt' },
      });

      expect(result.isError).toBeUndefined();
      expect(JSON.stringify(result.content)).toContain('hello from the root');
    });

    it('denies a governed write with a message that says why', async () => {
      const result = await serve.client.callTool({
        name: 'write_file',
        arguments: { path: 'denied.txt', content: 'no' },
      });

      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toMatch(/denied by approval.*elicitation/);
      expect(existsSync(path.join(root, 'denied.txt'))).toBe(false);
    });

    it('feeds back a scope escape as an isError result', async () => {
      const result = await serve.client.callTool({
        name: 'read_file',
        arguments: { path: '../../etc/passwd' },
      });

      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain('scope_escape');
    });

    it('refuses a registered tool outside the grant as not_granted, with the CLI hint', async () => {
      const result = await serve.client.callTool({
        name: 'run_command',
        arguments: { command: 'printf', args: ['raw-arg-sentinel', path.join(root, 'hello.txt')] },
      });

      // The hint is the one `toolhost call` prints, taken from the same function.
      const cliHint = describeFailure(new ToolPolicyError('run_command', 'not_granted')).hint;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(`tool run_command denied: not_granted\nhint: ${cliHint}`);
      expect(errorMeta(result)).toEqual({
        code: 'tool_denied',
        reason: 'not_granted',
        classification: 'fatal',
      });
      // Neither the argument values nor a host path reach the answer.
      expect(JSON.stringify(result)).not.toMatch(
        /printf|raw-arg-sentinel|hello\.txt|toolhost-serve-/,
      );
    });

    it('answers a name no tool has as unknown (JSON-RPC -32602), listing what is served', async () => {
      const attempt = serve.client.callTool({ name: 'no_such_tool', arguments: {} });

      await expect(attempt).rejects.toThrow(
        'available tools: list_directory, read_file, write_file',
      );
    });

    it('bounds a large result to the model-facing ceiling with a truncation marker', async () => {
      const result = await serve.client.callTool({
        name: 'read_file',
        arguments: { path: 'big.txt' },
      });

      const text = (result.content as { text: string }[])[0]?.text ?? '';
      expect(Buffer.byteLength(text)).toBeLessThan(60_000);
      expect(text).toContain('truncated');
    });
  });

  describe('in ask mode with a client that elicits', () => {
    let serve: ServeClient;
    beforeAll(async () => {
      serve = await connectServe(serverArgs('--tools', 'read_file,write_file'), {
        elicitation: true,
      });
    });
    afterAll(() => serve.close());

    it('writes once the human approves through elicitation', async () => {
      serve.answer = { action: 'accept', content: { decision: 'approve once' } };

      const result = await serve.client.callTool({
        name: 'write_file',
        arguments: { path: 'approved.txt', content: 'approved' },
      });

      expect(result.isError).toBeUndefined();
      expect(existsSync(path.join(root, 'approved.txt'))).toBe(true);
      expect(serve.elicitations.at(-1)).toContain('write_file (fs_write)');
      expect(serve.elicitations.at(-1)).toContain('path: approved.txt');
    });

    it('refuses the write when the human declines', async () => {
      serve.answer = { action: 'decline' };

      const result = await serve.client.callTool({
        name: 'write_file',
        arguments: { path: 'rejected.txt', content: 'no' },
      });

      expect(JSON.stringify(result.content)).toMatch(/user_rejected/);
      expect(existsSync(path.join(root, 'rejected.txt'))).toBe(false);
    });

    it('shows the redacted preview, never the secret in the target', async () => {
      serve.answer = { action: 'cancel' };

      const result = await serve.client.callTool({
        name: 'write_file',
        arguments: { path: 'AKIAIOSFODNN7EXAMPLE.txt', content: 'x' },
      });

      expect(JSON.stringify(result.content)).toMatch(/user_rejected/);
      expect(JSON.stringify(result)).not.toContain('AKIAIOSFODNN7EXAMPLE');
      expect(serve.elicitations.at(-1)).not.toContain('AKIAIOSFODNN7EXAMPLE');
      expect(serve.elicitations.at(-1)).toContain('[redacted]');
    });
  });

  it('asks before a write to its own audit log in auto mode, and refuses without a human', async () => {
    const auditLog = path.join(root, 'audit.jsonl');
    const serve = await connectServe(
      serverArgs('--tools', 'write_file', '--mode', 'auto', '--audit-log', auditLog),
    );
    try {
      const result = await serve.client.callTool({
        name: 'write_file',
        arguments: { path: 'audit.jsonl', content: 'forged\n' },
      });

      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toMatch(/denied by approval/);
      // The log itself records the attempt; a line of its own would be the write landing.
      expect(await readFile(auditLog, 'utf8')).not.toMatch(/^forged$/m);
    } finally {
      await serve.close();
    }
  });

  it('proxies a configured MCP server tool through the same pipeline (both ways at once)', async () => {
    const proxied = path.join(sandbox, 'proxied');
    await mkdir(proxied);
    await writeFile(
      path.join(proxied, 'toolhost.config.json'),
      JSON.stringify({
        tools: ['mcp_fx_echo'],
        mcpServers: {
          fx: {
            command: process.execPath,
            args: ['--import', 'tsx', FIXTURE_MCP_SERVER],
            tools: ['echo'],
            readOnlyPaths: [REPOSITORY],
          },
        },
      }),
    );
    const serve = await connectServe([
      '--root',
      proxied,
      // Named explicitly, so given rather than needing a recorded approval.
      '--config',
      path.join(proxied, 'toolhost.config.json'),
      '--state-dir',
      path.join(sandbox, 'state'),
      '--mode',
      'auto',
    ]);
    try {
      const { tools } = await serve.client.listTools();
      const result = await serve.client.callTool({
        name: 'mcp_fx_echo',
        arguments: { text: 'round trip' },
      });
      const invalid = await serve.client.callTool({ name: 'mcp_fx_echo', arguments: { text: 1 } });

      expect(tools.map((tool) => [tool.name, tool.annotations?.openWorldHint])).toEqual([
        ['mcp_fx_echo', true],
      ]);
      expect(JSON.stringify(result.content)).toContain('round trip');
      expect(invalid.isError).toBe(true);
    } finally {
      await serve.close();
    }
  });

  it('defaults to the read-only grant and exits when the client hangs up', async () => {
    const serve = await connectServe(serverArgs());
    const pid = serve.pid;

    const { tools } = await serve.client.listTools();
    await serve.close();

    expect(tools.map((tool) => tool.name)).toEqual([
      'git_status',
      'list_directory',
      'read_file',
      'search_files',
    ]);
    await expect.poll(() => pid !== null && isAlive(pid), { timeout: 5_000 }).toBe(false);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
