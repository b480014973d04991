import { existsSync } from 'node:fs';
import { readFile, stat, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { binArgv, cliEnv, runCli } from './run-cli.js';
import { createWorkspace, type Workspace } from './workspace.js';

describe('toolhost serve --ui on stdio leaves its URL for toolhost ui', () => {
  let ws: Workspace;
  let pid: number | undefined;
  beforeEach(async () => {
    ws = await createWorkspace();
  });
  afterEach(async () => {
    // A serve this test started and did not see stop is ended by its PID.
    if (pid !== undefined) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await ws.cleanup();
  });

  const urlFile = () => join(ws.stateDir, 'ui-url');
  const ui = () => runCli(['ui', ...ws.stateFlags], { cwd: ws.root });

  it('writes a 0600 ui-url that answers, prints it with toolhost ui, and removes it on stop', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: binArgv(['serve', '--ui', ...ws.stateFlags]),
      cwd: ws.root,
      env: cliEnv() as Record<string, string>,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const client = new Client({ name: 'ui-url-test', version: '0' });
    // Connected: the page is up and the file written (before the MCP server started).
    await client.connect(transport);
    pid = transport.pid ?? undefined;
    expect(pid).toBeDefined();

    const mode = (await stat(urlFile())).mode & 0o777;
    const record = JSON.parse(await readFile(urlFile(), 'utf8')) as { url: string; pid: number };
    const page = await fetch(record.url);
    const shown = await ui();

    expect(mode).toBe(0o600);
    expect(record.pid).toBe(pid);
    expect(new URL(record.url).hostname).toBe('127.0.0.1');
    expect(page.status).toBe(200);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toBe(`${record.url}\n`);
    // The token travels only on stdout, where it was asked for.
    expect(shown.stderr).toBe('');

    process.kill(pid as number, 'SIGTERM');
    await waitForExit(pid as number);
    pid = undefined;
    const after = await ui();

    expect(existsSync(urlFile())).toBe(false);
    expect(after.code).toBe(5);
    expect(after.stderr).toContain('no toolhost serve --ui is running for this state dir');
    expect(after.stderr).not.toContain(new URL(record.url).searchParams.get('token') ?? '-');
    expect(stderr).toContain('toolhost ui: http://127.0.0.1:');
    await client.close().catch(() => undefined);
  }, 60_000);

  it('says so when the recorded serve is gone, and exits non-zero', async () => {
    await mkdir(ws.stateDir, { recursive: true });
    // What a serve killed with SIGKILL leaves: a record whose process is gone.
    await writeFile(
      urlFile(),
      JSON.stringify({ url: 'http://127.0.0.1:9/?token=stale', pid: 2 ** 22 + 1 }),
      { mode: 0o600 },
    );

    const shown = await ui();

    expect(shown.code).toBe(5);
    expect(shown.stdout).toBe('');
    expect(shown.stderr).toContain('is no longer running');
    expect(shown.stderr).not.toContain('stale');
  });

  it('says so when no serve --ui ever ran on the state dir', async () => {
    const shown = await ui();

    expect(shown.code).toBe(5);
    expect(shown.stderr).toContain('no toolhost serve --ui is running');
    expect(shown.stderr).toContain('hint: start `toolhost serve --ui`');
  });
});

// Polls signal 0 until the PID is gone: the SDK transport does not expose the child.
async function waitForExit(pid: number): Promise<void> {
  for (let waited = 0; waited < 20_000; waited += 100) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('serve --ui did not stop after SIGTERM');
}
