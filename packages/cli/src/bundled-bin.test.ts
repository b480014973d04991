import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The published `toolhost` binary is the esbuild bundle `npm run build` writes: these tests run
// it as a user would, so a chunk that fails to load, a dependency that does not resolve from the
// bundle or an error class renamed by minification fails here, not on a user's machine.
const BUNDLE_DIR = fileURLToPath(new URL('../dist/bundle/', import.meta.url));
const BUNDLE = path.join(BUNDLE_DIR, 'toolhost.js');
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

  const run = (args: readonly string[], bin = BUNDLE, env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [bin, ...args, '--state-dir', state], {
      cwd: root,
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '', ...env },
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

  describe('starting from the V8 code cache made at build time', () => {
    const read = ['call', 'read_file', '{"path":"notes.txt"}', '--json'];
    const refused = ['call', 'read_file', '{"path":"../outside"}', '--json'];
    // A call's fresh run id is the only field that differs between two runs.
    const withoutRunId = (stdout: string): unknown => ({ ...JSON.parse(stdout), runId: 'any' });
    const debug = { NODE_DEBUG: 'toolhost' };
    // A copy of the installed bundle to break in each way a user's machine can differ.
    let copy: string;

    beforeAll(async () => {
      copy = path.join(base, 'bundle-copy');
      await cp(BUNDLE_DIR, copy, {
        recursive: true,
        filter: (source) => !source.endsWith('.map'),
      });
    });

    it('ships no path of the machine that built it, in the cache or the bundle', async () => {
      // The repository's path and the build's training directory are the builder's, not the user's.
      const builder = [
        fileURLToPath(new URL('../../../', import.meta.url)),
        'toolhost-code-cache-',
      ];
      for (const file of ['toolhost.cjs.cache', 'toolhost.cjs', 'toolhost.js']) {
        const bytes = await readFile(path.join(BUNDLE_DIR, file));
        for (const where of builder) {
          expect(bytes.includes(where), `${file} holds ${where}`).toBe(false);
        }
      }
    });

    it('takes the cache under the Node that built it', () => {
      const result = run(read, BUNDLE, debug);

      expect(result.stderr).toMatch(/code cache accepted/);
      expect(result.status).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({
        ok: true,
        result: { content: 'hello from the bundle\n' },
      });
    });

    // Each way the cache cannot be used, with what NODE_DEBUG says about it; the command's
    // output must be the same bytes as from the cache.
    const variants: readonly {
      readonly name: string;
      readonly debugLine: RegExp;
      readonly breakCopy: (dir: string) => Promise<void>;
    }[] = [
      {
        name: 'a cache that is not V8 data',
        debugLine: /code cache rejected/,
        breakCopy: (dir) => writeFile(path.join(dir, 'toolhost.cjs.cache'), 'not a code cache'),
      },
      {
        name: 'a cache made for other source',
        debugLine: /code cache rejected/,
        breakCopy: async (dir) => {
          const file = path.join(dir, 'toolhost.cjs');
          await writeFile(file, `${await readFile(file, 'utf8')}\n;`);
        },
      },
      {
        name: 'no cache at all',
        debugLine: /code cache absent/,
        breakCopy: (dir) => rm(path.join(dir, 'toolhost.cjs.cache')),
      },
      {
        name: 'another Node than the one that built it (the ES module build)',
        debugLine: /ES module build/,
        breakCopy: async (dir) => {
          const file = path.join(dir, 'toolhost.js');
          const entry = await readFile(file, 'utf8');
          const built = JSON.stringify(process.versions.v8);
          expect(entry).toContain(built);
          await writeFile(file, entry.replace(built, '"0.0.0-other-node"'));
        },
      },
    ];
    for (const variant of variants) {
      it(`gives the same output with ${variant.name}, and writes nothing into the install`, async () => {
        const dir = path.join(base, `bundle-${variants.indexOf(variant)}`);
        await cp(copy, dir, { recursive: true });
        await variant.breakCopy(dir);
        const before = (await readdir(dir, { recursive: true })).sort();
        const bin = path.join(dir, 'toolhost.js');

        for (const [args, status] of [
          [read, 0],
          [refused, 3],
        ] as const) {
          const expected = run(args);
          const actual = run(args, bin, debug);

          expect(actual.stderr).toMatch(variant.debugLine);
          expect(actual.stderr).not.toMatch(/code cache accepted/);
          expect(expected.status).toBe(status);
          expect(actual.status).toBe(status);
          expect(withoutRunId(actual.stdout)).toEqual(withoutRunId(expected.stdout));
        }
        // A rejected or absent cache is never rewritten where the package is installed.
        expect((await readdir(dir, { recursive: true })).sort()).toEqual(before);
      });
    }
  });
});
