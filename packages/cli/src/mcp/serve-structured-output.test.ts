import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_TOOLS } from '../session/local-tools.js';
import { connectInProcess } from './test-support/in-process-server.js';
import { errorMeta, textOf } from './test-support/tool-result-parts.js';

// The SDK's own Client validates `structuredContent` against the listed `outputSchema` in
// callTool, errors included: every call below that resolves passed that check.
describe('toolhost serve structured output', () => {
  let sandbox = '';
  let root = '';
  const connect = (extra: { limits?: { maxBytes: number; maxLines: number } } = {}) =>
    connectInProcess({
      root,
      stateDir: path.join(sandbox, 'state'),
      grant: LOCAL_TOOLS.map((tool) => tool.id),
      mode: 'auto',
      ...extra,
    });
  let server: Awaited<ReturnType<typeof connectInProcess>>;
  beforeAll(async () => {
    sandbox = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-structured-')));
    root = path.join(sandbox, 'app');
    await mkdir(root);
    await writeFile(path.join(root, 'from.txt'), 'moved\n');
    server = await connect();
    // callTool validates only against the schemas of a listing it has seen.
    await server.client.listTools();
  });
  afterAll(async () => {
    await server.close();
    await rm(sandbox, { recursive: true, force: true });
  });

  it('lists an outputSchema only for the tools whose result is a fixed record', async () => {
    const { tools } = await server.client.listTools();

    const withSchema = tools.filter((tool) => tool.outputSchema !== undefined);
    expect(withSchema.map((tool) => tool.name).sort()).toEqual([
      'create_directory',
      'move_file',
      'write_file',
    ]);
    expect(tools.find((tool) => tool.name === 'write_file')?.outputSchema).toMatchObject({
      type: 'object',
      anyOf: [
        { required: ['path', 'bytesWritten'], additionalProperties: false },
        { required: ['code', 'classification'] },
        { required: ['truncated'] },
      ],
    });
  });

  it("lists schemas the client's own validator holds a record to", async () => {
    const { tools } = await server.client.listTools();
    const schema = tools.find((tool) => tool.name === 'write_file')?.outputSchema ?? {};
    const validate = new AjvJsonSchemaValidator().getValidator(schema);

    expect(validate({ path: 'a', bytesWritten: 1 }).valid).toBe(true);
    expect(validate({ code: 'tool_denied', classification: 'fatal' }).valid).toBe(true);
    expect(validate({ truncated: true }).valid).toBe(true);
    expect(validate({ path: 'a' }).valid).toBe(false);
    expect(validate({ path: 'a', bytesWritten: 1, extra: 2 }).valid).toBe(false);
    expect(validate({ code: 'x', classification: 'maybe' }).valid).toBe(false);
  });

  it('returns a write as structuredContent, its text part as before', async () => {
    const result = await server.client.callTool({
      name: 'write_file',
      arguments: { path: 'out.txt', content: 'hello' },
    });

    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ path: 'out.txt', bytesWritten: 5 });
    expect(textOf(result)).toContain('"bytesWritten":5');
  });

  it('returns create_directory and move_file records', async () => {
    const made = await server.client.callTool({
      name: 'create_directory',
      arguments: { path: 'dir' },
    });
    const again = await server.client.callTool({
      name: 'create_directory',
      arguments: { path: 'dir' },
    });
    const moved = await server.client.callTool({
      name: 'move_file',
      arguments: { source: 'from.txt', destination: 'dir/to.txt' },
    });

    expect(made.structuredContent).toEqual({ path: 'dir', created: true });
    expect(again.structuredContent).toEqual({ path: 'dir', created: false });
    expect(moved.structuredContent).toEqual({
      source: 'from.txt',
      destination: 'dir/to.txt',
      overwritten: false,
    });
  });

  it.each([
    ['a scope escape', 'write_file', { path: '../escape.txt', content: 'no' }, 'scope_escape'],
    ['a missing source', 'move_file', { source: 'nope.txt', destination: 'b.txt' }, 'not_found'],
    ['invalid arguments', 'create_directory', { path: 'd', extra: 1 }, undefined],
  ])('answers %s as an isError result the client accepts', async (_case, name, args, reason) => {
    const result = await server.client.callTool({ name, arguments: args });

    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual(errorMeta(result));
    expect(result.structuredContent).toMatchObject(reason === undefined ? {} : { reason });
  });

  it('answers a read of a missing file (no outputSchema) as before', async () => {
    const result = await server.client.callTool({
      name: 'read_file',
      arguments: { path: 'missing.txt' },
    });

    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ code: 'tool_failed', reason: 'not_found' });
  });

  it('says truncated when the ceiling cut the record to text', async () => {
    const tight = await connect({ limits: { maxBytes: 16, maxLines: 2000 } });
    try {
      await tight.client.listTools();

      const result = await tight.client.callTool({
        name: 'write_file',
        arguments: { path: 'a-rather-long-file-name.txt', content: 'x' },
      });

      expect(result.isError).toBeUndefined();
      expect(result.structuredContent).toEqual({ truncated: true });
      expect(textOf(result)).toContain('truncated');
    } finally {
      await tight.close();
    }
  });
});
