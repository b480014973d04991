import { mkdir, mkdtemp, readFile, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAME_ENVELOPE_BYTES } from './fit-schema-to-frame.js';
import { MAX_STDIO_FRAME_BYTES } from './stdio-frame-transport.js';
import { REPO_ROOT } from './test-support/serve-client.js';
import { textOf } from './test-support/tool-result-parts.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin.ts');

// Issue 18 item 5, end to end: the SDK's Client over stdio against a real `toolhost serve`.
// A 6 MiB write of newlines is a 12 MiB line, past the SDK transport's 10 MiB read buffer: the
// server used to close its transport and exit 0 without a word.
describe('toolhost serve over stdio, frames near and past the cap', () => {
  let sandbox = '';
  let root = '';
  let client: Client;
  let transport: StdioClientTransport;
  let stderr = '';
  beforeAll(async () => {
    sandbox = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-serve-frames-')));
    root = path.join(sandbox, 'app');
    await mkdir(root);
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        '--conditions=source',
        '--import',
        'tsx',
        BIN,
        'serve',
        '--root',
        root,
        '--state-dir',
        path.join(sandbox, 'state'),
        '--mode',
        'auto',
        '--tools',
        'read_file,write_file,run_command,http_request',
      ],
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    client = new Client({ name: 'toolhost-test', version: '1.0.0' });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client.close();
    await rm(sandbox, { recursive: true, force: true });
  });

  it('takes a 6 MiB write of newlines (a 12 MiB JSON line) the schema allows', async () => {
    const result = await client.callTool({
      name: 'write_file',
      arguments: { path: 'newlines.txt', content: '\n'.repeat(6 * 1024 * 1024) },
    });

    expect(result.isError).toBeUndefined();
    expect((await stat(path.join(root, 'newlines.txt'))).size).toBe(6 * 1024 * 1024);
  });

  it('answers a request over the frame cap with a JSON-RPC error, says so on stderr, and serves the next call', async () => {
    const attempt = client.callTool({
      name: 'write_file',
      // Past the schema too: only a client ignoring it can send this, and it must not kill us.
      arguments: { path: 'huge.txt', content: 'a'.repeat(MAX_STDIO_FRAME_BYTES + 1024) },
    });

    const error = await attempt.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32600);
    expect((error as McpError).message).toContain('request too large');
    expect(stderr).toMatch(
      /toolhost serve: refused a \d+-byte request over the \d+-byte stdio frame cap/u,
    );
    expect(stderr).not.toContain('aaaa');

    const next = await client.callTool({
      name: 'write_file',
      arguments: { path: 'after.txt', content: 'still serving' },
    });
    expect(next.isError).toBeUndefined();
    expect(textOf(next)).toContain('after.txt');
    expect(await readFile(path.join(root, 'after.txt'), 'utf8')).toBe('still serving');
    await expect(readFile(path.join(root, 'huge.txt'))).rejects.toThrow('ENOENT');
  });

  it('serves no string schema a frame cannot carry', async () => {
    const { tools } = await client.listTools();
    const strings = tools.flatMap((tool) => stringSchemas(tool.inputSchema));

    expect(strings.length).toBeGreaterThan(5);
    for (const schema of strings) {
      expect(schema.maxLength).toBeTypeOf('number');
      expect(6 * (schema.maxLength ?? Infinity) + FRAME_ENVELOPE_BYTES).toBeLessThanOrEqual(
        MAX_STDIO_FRAME_BYTES,
      );
    }
  });
});

function stringSchemas(node: unknown): { maxLength?: number }[] {
  if (typeof node !== 'object' || node === null) return [];
  const own =
    (node as { type?: unknown }).type === 'string' ? [node as { maxLength?: number }] : [];
  return [...own, ...Object.values(node).flatMap(stringSchemas)];
}
