import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver } from '../../otel/src/test-support/otlp-receiver.js';
import { binArgv, callCli, cliEnv, runCli } from './run-cli.js';
import { createWorkspace, type Workspace } from './workspace.js';

const WITHOUT_EXPORTER = fileURLToPath(new URL('./without-otel-exporter.mjs', import.meta.url));
// Secret-shaped, so the projections redact it; it must not reach the collector in any form.
const TOKEN = `ghp_${'Zx9Yw8Vu7T'.repeat(3)}qrstuv`;

describe('toolhost call and serve with OTLP export', () => {
  let ws: Workspace;
  let receiver: OtlpReceiver;
  beforeEach(async () => {
    ws = await createWorkspace();
    await ws.write('secret.txt', `GITHUB_TOKEN=${TOKEN}\n`);
    receiver = await startOtlpReceiver();
  });
  afterEach(async () => {
    await receiver.close();
    await ws.cleanup();
  });

  const otlpEnv = () => ({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint });

  it('exports one execute_tool read_file span before `call` exits, without the secret', async () => {
    const run = await runCli(['call', 'read_file', '{"path":"secret.txt"}', ...ws.stateFlags], {
      cwd: ws.root,
      env: otlpEnv(),
    });

    expect(run.code).toBe(0);
    expect(run.stdout).toContain(TOKEN);
    expect(receiver.spans).toHaveLength(1);
    expect(receiver.spans[0]).toMatchObject({
      name: 'execute_tool read_file',
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'read_file',
        'gen_ai.tool.call.id': expect.stringMatching(/^call-/),
        'gen_ai.tool.type': 'function',
      },
      resource: { 'service.name': 'toolhost' },
    });
    expect(receiver.bodies.join('\n')).not.toContain(TOKEN);
    expect(receiver.bodies.join('\n')).not.toContain('GITHUB_TOKEN');
  });

  it('exports a refused call with its toolhost code as error.type', async () => {
    const run = await runCli(['call', 'read_file', '{"path":"../outside"}', ...ws.stateFlags], {
      cwd: ws.root,
      env: { ...otlpEnv(), OTEL_SERVICE_NAME: 'my-agent' },
    });

    expect(run.code).toBe(3);
    expect(receiver.spans[0]).toMatchObject({
      attributes: { 'error.type': 'tool_denied', 'toolhost.error.reason': 'scope_escape' },
      status: { code: 2, message: 'tool read_file denied: scope_escape' },
      resource: { 'service.name': 'my-agent' },
    });
  });

  it('sends nothing without an endpoint', async () => {
    const run = await callCli(ws, ['read_file', '{"path":"notes.txt"}']);

    expect(run.code).toBe(0);
    expect(receiver.bodies).toEqual([]);
  });

  it('still succeeds when the collector is down, saying the traces were lost', async () => {
    const gone = await startOtlpReceiver();
    await gone.close();

    const run = await runCli(['call', 'read_file', '{"path":"notes.txt"}', ...ws.stateFlags], {
      cwd: ws.root,
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: gone.endpoint },
    });

    expect(run.code).toBe(0);
    expect(run.stdout).toContain('hello from notes');
    expect(run.stderr).toBe(
      'toolhost: the traces were not exported to the OTLP endpoint (ECONNREFUSED)\n',
    );
  });

  it('names a missing optional exporter package, with no stack, and runs nothing', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        WITHOUT_EXPORTER,
        ...binArgv(['call', 'write_file', '{"path":"w.txt","content":"x"}', ...ws.stateFlags]),
        '--mode',
        'auto',
        '--tools',
        'write_file',
      ],
      { cwd: ws.root, env: cliEnv(otlpEnv()), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];

    expect(code).toBe(2);
    expect(stderr).toContain('@opentelemetry/exporter-trace-otlp-http');
    expect(stderr).not.toMatch(/\n\s+at /u);
    expect(existsSync(path.join(ws.root, 'w.txt'))).toBe(false);
  });

  it('exports the spans of `serve` when it shuts down', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: binArgv(['serve', ...ws.stateFlags]),
      cwd: ws.root,
      env: cliEnv(otlpEnv()) as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'cli-otel-test', version: '0' });
    await client.connect(transport);

    const read = await client.callTool({ name: 'read_file', arguments: { path: 'secret.txt' } });
    await client.close();
    await waitFor(() => receiver.spans.length > 0);

    expect(JSON.stringify(read.content)).toContain(TOKEN);
    expect(receiver.spans.map((span) => span.name)).toEqual(['execute_tool read_file']);
    expect(receiver.bodies.join('\n')).not.toContain(TOKEN);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('waitFor: timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
