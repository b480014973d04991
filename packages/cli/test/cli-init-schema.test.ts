import { existsSync } from 'node:fs';
import { access, constants, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { createWorkspace, type Workspace } from './workspace.js';

const PUBLISHED = fileURLToPath(new URL('../schema/toolhost.config.schema.json', import.meta.url));

describe('toolhost init: a $schema that resolves outside a Node project', () => {
  let ws: Workspace;
  beforeEach(async () => {
    ws = await createWorkspace();
  });
  afterEach(() => ws.cleanup());

  it('writes a $schema that resolves from the config directory with no node_modules', async () => {
    const init = await runCli(['init', ...ws.stateFlags], { cwd: ws.root });

    expect(init.code).toBe(0);
    expect(init.stdout).toContain('toolhost.config.schema.json');
    for (let dir = ws.root; dir !== path.dirname(dir); dir = path.dirname(dir)) {
      expect(existsSync(path.join(dir, 'node_modules'))).toBe(false);
    }
    const configFile = path.join(ws.root, 'toolhost.config.json');
    const config = JSON.parse(await readFile(configFile, 'utf8')) as { $schema: string };
    // As an editor resolves it: relative to the document's own URL.
    const resolved = new URL(config.$schema, pathToFileURL(configFile));
    expect(resolved.protocol).toBe('file:');
    const schemaFile = fileURLToPath(resolved);
    await access(schemaFile, constants.R_OK);
    const schema = JSON.parse(await readFile(schemaFile, 'utf8')) as Record<string, unknown>;
    expect(schema).toMatchObject({
      $schema: expect.stringContaining('json-schema.org'),
      title: 'toolhost.config.json',
      type: 'object',
    });
    expect(schema).toEqual(JSON.parse(await readFile(PUBLISHED, 'utf8')));
    // No machine's own path lands in a file that gets committed.
    expect(config.$schema).not.toContain(ws.root);
  });

  it('keeps a foreign file of the schema copy name and says so', async () => {
    await ws.write('toolhost.config.schema.json', '{"mine": true}\n');

    const init = await runCli(['init', ...ws.stateFlags], { cwd: ws.root });

    expect(init.code).toBe(0);
    expect(init.stderr).toContain('kept the existing toolhost.config.schema.json');
    expect(await readFile(path.join(ws.root, 'toolhost.config.schema.json'), 'utf8')).toBe(
      '{"mine": true}\n',
    );
  });
});
