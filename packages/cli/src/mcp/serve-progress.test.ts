import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ErrorCode, McpError, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectServe, type ServeClient } from './test-support/serve-client.js';

// Issue 18 item 10, end to end: the SDK's Client over stdio against a real `toolhost serve`
// running a real (sandboxed) `sleep` longer than the client's request timeout.
describe('toolhost serve progress notifications', () => {
  let sandbox = '';
  let serve: ServeClient;
  const sleep = { name: 'run_command', arguments: { command: 'sleep', args: ['3'] } };
  beforeAll(async () => {
    sandbox = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-serve-progress-')));
    const root = path.join(sandbox, 'app');
    await mkdir(root);
    serve = await connectServe([
      '--root',
      root,
      '--state-dir',
      path.join(sandbox, 'state'),
      '--mode',
      'auto',
      '--tools',
      'run_command',
      // The exact command line: an allowlist entry names the arguments too.
      '--allow-command',
      'sleep 3',
    ]);
  });
  afterAll(async () => {
    await serve.close();
    await rm(sandbox, { recursive: true, force: true });
  });

  it('keeps a client that resets its timeout on progress waiting for a call past the timeout', async () => {
    const progress: Progress[] = [];

    const result = await serve.client.callTool(sleep, undefined, {
      timeout: 1500,
      resetTimeoutOnProgress: true,
      onprogress: (update) => progress.push(update),
    });

    expect(result.isError).toBeUndefined();
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.map((update) => update.progress)).toEqual(
      progress.map((_, index) => index + 1),
    );
    expect(progress[0]?.message).toMatch(/^run_command: running for \d+ s$/u);
    expect(progress[0]?.total).toBeUndefined();
  }, 20_000);

  it('sends none when the client asks none: the same call times out', async () => {
    const attempt = serve.client.callTool(sleep, undefined, { timeout: 1500 });

    await expect(attempt).rejects.toSatisfy(
      (error) => error instanceof McpError && error.code === ErrorCode.RequestTimeout,
    );
  }, 20_000);
});
