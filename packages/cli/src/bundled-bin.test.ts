import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The published `toolhost` binary is the esbuild bundle `npm run build` writes: these tests run
// it as a user would, so a chunk that fails to load, a dependency that does not resolve from the
// bundle or an error class renamed by minification fails here, not on a user's machine.
const BUNDLE = fileURLToPath(new URL('../dist/bundle/toolhost.js', import.meta.url));
const built = existsSync(BUNDLE);
if (!built && process.env['CI'] !== undefined)
  throw new Error('bundled-bin.test: run `npm run build` first (CI builds before testing)');

describe.skipIf(!built)('the bundled toolhost binary', () => {
  let base: string;
  let root: string;
  let state: string;

  beforeAll(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-bundle-')));
    root = path.join(base, 'app');
    state = path.join(base, 'state');
    await mkdir(root);
    await writeFile(path.join(root, 'notes.txt'), 'hello from the bundle\n');
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const run = (args: readonly string[]) =>
    spawnSync(process.execPath, [BUNDLE, ...args, '--state-dir', state], {
      cwd: root,
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '' },
      timeout: 60_000,
    });

  it('runs a read through the whole pipeline', () => {
    const result = run(['call', 'read_file', '{"path":"notes.txt"}']);

    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('hello from the bundle');
  });

  it('refuses with the typed error, its class name and hint intact', () => {
    const result = run(['call', 'read_file', '{"path":"../outside"}', '--json']);

    expect(result.status).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({
      ok: false,
      error: { code: 'tool_denied', name: 'ToolPolicyError', reason: 'scope_escape' },
    });
  });

  it('journals a write in SQLite (a native addon resolved from the bundle) and replays it', async () => {
    const args = [
      'call',
      'write_file',
      '{"path":"out.txt","content":"once\\n"}',
      '--tools',
      'write_file',
      '--mode',
      'auto',
      '--run-id',
      'bundle-run',
      '--call-id',
      'c1',
      '--json',
    ];
    const first = run(args);
    await writeFile(path.join(root, 'out.txt'), 'changed by hand\n');
    const replay = run(args);

    expect(first.status).toBe(0);
    expect(replay.status).toBe(0);
    // The replay answered from the journal: the write did not run again.
    expect(await readFile(path.join(root, 'out.txt'), 'utf8')).toBe('changed by hand\n');
    expect(existsSync(path.join(state, 'journal.sqlite'))).toBe(true);
  });

  it('runs an allowed command in the sandbox (the process arm, a lazily loaded chunk)', () => {
    const result = run([
      'call',
      'run_command',
      '{"command":"echo","args":["sandboxed"]}',
      '--tools',
      'run_command',
      '--allow-command',
      'echo sandboxed',
      '--mode',
      'auto',
      '--json',
    ]);

    expect(result.status).toBe(0);
    expect(result.stdout).toContain('sandboxed');
  });

  it('serves MCP over stdio to the SDK client', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        BUNDLE,
        'serve',
        '--root',
        root,
        '--tools',
        'read_file,list_directory',
        '--state-dir',
        state,
      ],
      env: { PATH: process.env['PATH'] ?? '' },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'bundle-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const listed = await client.listTools();
      const called = await client.callTool({ name: 'read_file', arguments: { path: 'notes.txt' } });

      expect(listed.tools.map((tool) => tool.name).sort()).toEqual(['list_directory', 'read_file']);
      expect(called.isError).not.toBe(true);
      expect(JSON.stringify(called.content)).toContain('hello from the bundle');
    } finally {
      await client.close();
    }
  });
});
