import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { binArgv, cliEnv } from './run-cli.js';
import { createWorkspace, type Workspace } from './workspace.js';

// A module hook that appends every URL Node loads to $TOOLHOST_LOAD_LOG: what a start-up costs
// is mostly which modules it loads, and that is exact where a timing is not.
const HOOKS = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.TOOLHOST_LOAD_LOG, url + '\\n');
  return next(url, context);
}
`;

describe('toolhost call start-up', () => {
  let ws: Workspace;
  let hookDir = '';
  beforeEach(async () => {
    ws = await createWorkspace();
    hookDir = await mkdtemp(join(tmpdir(), 'toolhost-load-log-'));
    await writeFile(join(hookDir, 'hooks.mjs'), HOOKS);
    await writeFile(
      join(hookDir, 'register.mjs'),
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(hookDir, 'hooks.mjs')).href)});\n`,
    );
  });
  afterEach(async () => {
    await rm(hookDir, { recursive: true, force: true });
    await ws.cleanup();
  });

  async function loadedBy(args: readonly string[]): Promise<string[]> {
    const log = join(hookDir, `loads-${Math.random().toString(36).slice(2)}.txt`);
    const child = spawn(
      process.execPath,
      ['--import', join(hookDir, 'register.mjs'), ...binArgv([...args, ...ws.stateFlags])],
      {
        cwd: ws.root,
        env: cliEnv({ TOOLHOST_LOAD_LOG: log }),
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'close')) as [number | null];
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    return (await readFile(log, 'utf8')).split('\n').filter((line) => line !== '');
  }

  it('reads a file without loading the HTTP client, the sandbox, the MCP SDK or other commands', async () => {
    const loaded = await loadedBy(['call', 'read_file', '{"path":"notes.txt"}']);

    expect(loaded.some((url) => url.includes('/packages/cli/src/commands/call.ts'))).toBe(true);
    for (const absent of [
      '/node_modules/undici/',
      '/node_modules/@modelcontextprotocol/',
      '/packages/node/src/egress/create-egress-arm.ts',
      '/packages/node/src/process/sandbox/create-sandbox.ts',
      '/packages/node/src/journal/create-sqlite-effect-journal.ts',
      '/packages/cli/src/commands/explain.ts',
      '/packages/cli/src/commands/doctor.ts',
    ]) {
      expect(loaded.filter((url) => url.includes(absent))).toEqual([]);
    }
  });

  it('builds the process arm for a call that spawns, and still no HTTP client', async () => {
    const loaded = await loadedBy([
      'call',
      'run_command',
      '{"command":"true"}',
      '--tools',
      'run_command',
      '--allow-command',
      'true',
      '--mode',
      'auto',
      '--sandbox',
      'off',
    ]);

    expect(
      loaded.some((url) => url.includes('/packages/node/src/process/create-process-arm.ts')),
    ).toBe(true);
    expect(loaded.filter((url) => url.includes('/node_modules/undici/'))).toEqual([]);
  });
});
