import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectServe, type ServeClient } from './test-support/serve-client.js';
import { errorMeta, textOf } from './test-support/tool-result-parts.js';

// End to end: the SDK's own Client over stdio against a real `toolhost serve` process, on what
// a client sees of results and refusals (issue 18 items 3, 4 and 8).
describe('toolhost serve results and refusals', () => {
  let sandbox = '';
  let root = '';
  const png = tinyPng();
  const serve = (mode: string, tools: string, options: { elicitation?: boolean } = {}) =>
    connectServe(
      [
        '--root',
        root,
        '--state-dir',
        path.join(sandbox, 'state'),
        '--mode',
        mode,
        '--tools',
        tools,
      ],
      options,
    );
  beforeAll(async () => {
    sandbox = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-serve-results-')));
    root = path.join(sandbox, 'app');
    await mkdir(root);
    await writeFile(path.join(root, 'dot.png'), png);
    // Past the 4 MiB media cap of one result, under read_media's 8 MiB range cap.
    await writeFile(path.join(root, 'large.bin'), Buffer.alloc(5 * 1024 * 1024));
  });
  afterAll(() => rm(sandbox, { recursive: true, force: true }));

  describe('media', () => {
    let client: ServeClient;
    beforeAll(async () => {
      client = await serve('ask', 'read_file,read_media');
    });
    afterAll(() => client.close());

    it('sends a PNG read with read_file as MCP image content', async () => {
      const result = await client.client.callTool({
        name: 'read_file',
        arguments: { path: 'dot.png' },
      });

      expect(result.content).toContainEqual({
        type: 'image',
        data: png.toString('base64'),
        mimeType: 'image/png',
      });
      expect(textOf(result)).not.toContain('not forwarded');
    });

    it('sends the bytes read_media returns as image content', async () => {
      const handle = await handleOf(client, 'dot.png');

      const result = await client.client.callTool({ name: 'read_media', arguments: { handle } });

      expect(result.isError).toBeUndefined();
      expect(result.content).toContainEqual({
        type: 'image',
        data: png.toString('base64'),
        mimeType: 'image/png',
      });
    });

    it('withholds media past the cap with a line saying why', async () => {
      const handle = await handleOf(client, 'large.bin');

      const result = await client.client.callTool({ name: 'read_media', arguments: { handle } });

      expect((result.content as { type: string }[]).map((part) => part.type)).toEqual([
        'text',
        'text',
      ]);
      expect(textOf(result)).toContain(
        `[media ${handle} (application/octet-stream, ${5 * 1024 * 1024} bytes) not sent: over the ${4 * 1024 * 1024}-byte media cap of one result]`,
      );
    });
  });

  describe('in ask mode with a client that cannot elicit', () => {
    let client: ServeClient;
    beforeAll(async () => {
      client = await serve('ask', 'read_file,write_file,run_command');
    });
    afterAll(() => client.close());

    it('answers a denial as a tool error with no JSON-RPC code in its text', async () => {
      const result = await client.client.callTool({
        name: 'write_file',
        arguments: { path: 'denied.txt', content: 'no' },
      });

      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^tool write_file denied by approval: no_approval_hook: /);
      expect(textOf(result)).not.toMatch(/MCP error|-32600|--json|terminal/);
      expect(errorMeta(result)).toEqual({
        code: 'tool_denied',
        reason: 'no_approval_hook',
        classification: 'fatal',
      });
      expect(result.structuredContent).toEqual(errorMeta(result));
      expect(existsSync(path.join(root, 'denied.txt'))).toBe(false);
    });

    it('answers a guardrail denial as a fatal tool error with the CLI hint', async () => {
      const result = await client.client.callTool({
        name: 'run_command',
        arguments: { command: 'id' },
      });

      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('hint: add the exact command to "allowedCommands"');
      expect(errorMeta(result)).toEqual({
        code: 'tool_denied',
        reason: 'command_not_allowed',
        classification: 'fatal',
      });
    });

    it('answers an unknown tool as JSON-RPC -32602, its message said once', async () => {
      const error = await client.client
        .callTool({ name: 'no_such_tool', arguments: {} })
        .catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(-32602);
      expect((error as McpError).message).toBe(
        'MCP error -32602: unknown tool "no_such_tool"; available tools: read_file, run_command, write_file',
      );
    });
  });

  describe('in accept-edits mode with a client that elicits', () => {
    let client: ServeClient;
    beforeAll(async () => {
      client = await serve('accept-edits', 'read_file,write_file', { elicitation: true });
      client.answer = { action: 'accept', content: { decision: 'approve once' } };
    });
    afterAll(() => client.close());

    it.each([
      ['read_file', { path: '../x' }],
      ['write_file', { path: '../x', content: 'x' }],
    ])('refuses %s of ../x as scope_escape, asking nobody', async (name, args) => {
      const result = await client.client.callTool({ name, arguments: args });

      expect(errorMeta(result)).toEqual({
        code: 'tool_denied',
        reason: 'scope_escape',
        classification: 'recoverable',
      });
      expect(textOf(result)).not.toMatch(/needs approval/);
      expect(client.elicitations).toEqual([]);
      expect(existsSync(path.join(sandbox, 'x'))).toBe(false);
    });
  });

  it('writes the refusal the client got to the audit log: nobody asked, out of scope', async () => {
    const auditLog = path.join(sandbox, 'audit-refusals.jsonl');
    const client = await connectServe([
      ...['--root', root, '--state-dir', path.join(sandbox, 'state'), '--mode', 'ask'],
      ...['--tools', 'write_file', '--audit-log', auditLog],
    ]);
    try {
      const unasked = await client.client.callTool({
        name: 'write_file',
        arguments: { path: 'unasked.txt', content: 'x' },
      });
      const outside = await client.client.callTool({
        name: 'write_file',
        arguments: { path: '../outside.txt', content: 'x' },
      });

      expect(errorMeta(unasked)).toMatchObject({ reason: 'no_approval_hook' });
      expect(errorMeta(outside)).toMatchObject({ reason: 'scope_escape' });
    } finally {
      await client.close();
    }
    const results = (await readFile(auditLog, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event: string; payload?: { reason?: string } })
      .filter((line) => line.event === 'tool_result');

    expect(JSON.stringify(results)).not.toContain('user_rejected');
    expect(results.map((line) => JSON.stringify(line))).toEqual([
      expect.stringContaining('"reason":"no_approval_hook"'),
      expect.stringContaining('"reason":"scope_escape"'),
    ]);
  });

  it('answers write_file into a missing directory with a hint naming createDirs', async () => {
    const client = await serve('auto', 'write_file');
    try {
      const result = await client.client.callTool({
        name: 'write_file',
        arguments: { path: 'no/such/dir/a.txt', content: 'x' },
      });

      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(
        'hint: a parent directory does not exist: pass "createDirs"',
      );
      expect(errorMeta(result)).toMatchObject({ code: 'tool_failed', reason: 'not_found' });
    } finally {
      await client.close();
    }
  });
});

async function handleOf(client: ServeClient, file: string): Promise<string> {
  const read = await client.client.callTool({ name: 'read_file', arguments: { path: file } });
  const handle = /media:\/\/sha256-[0-9a-f]{64}/.exec(textOf(read))?.[0];
  if (handle === undefined) throw new Error(`no handle for ${file}`);
  return handle;
}

// A real 1x1 RGB PNG: signature, IHDR, one zlib-compressed scanline, IEND, each with its CRC.
function tinyPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8;
  header[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
