import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeToolHost, type NodeToolHostHandle } from '../create-node-tool-host.js';

describe('createNodeToolHost process and os options', () => {
  let base = '';
  let root = '';
  let handle: NodeToolHostHandle | undefined;
  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-host-process-')));
    root = path.join(base, 'app');
    await mkdir(path.join(root, 'src'), { recursive: true });
    await mkdir(path.join(root, '.ssh'));
  });
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
    await rm(base, { recursive: true, force: true });
  });

  const create = async (extra: object = {}): Promise<NodeToolHostHandle> => {
    handle = await createNodeToolHost({ root, stateDir: path.join(base, 'state'), ...extra });
    return handle;
  };

  it('has no process or os arm unless asked', async () => {
    const { host } = await create();

    expect(host.process).toBeUndefined();
    expect(host.os).toBeUndefined();
  });

  it('wires both arms when asked', async () => {
    const { host } = await create({ process: {}, os: {} });

    expect(host.process).toBeDefined();
    expect(host.os).toBeDefined();
  });

  it('runs in a cwd opened through the fs jail', async () => {
    const { host } = await create({ process: {} });

    const result = await host.process?.spawn('pwd', [], {}, { cwd: 'src' });

    expect(result?.stdout).toBe(`${path.join(root, 'src')}\n`);
  });

  it.each([
    ['outside the root', '..', 'scope_escape'],
    ['on the read floor', '.ssh', 'protected_path'],
  ])('refuses a cwd %s', async (_case, cwd, reason) => {
    const { host } = await create({ process: {} });

    const attempt = host.process?.spawn('pwd', [], {}, { cwd });

    await expect(attempt).rejects.toMatchObject({ code: 'tool_denied', reason });
  });

  it('reports a missing cwd as not_found, with no path in the message', async () => {
    const { host } = await create({ process: {} });

    const attempt = host.process?.spawn('pwd', [], {}, { cwd: 'missing' });

    await expect(attempt).rejects.toMatchObject({
      code: 'tool_failed',
      reason: 'not_found',
      message: 'tool run_command failed: not_found',
    });
  });

  it("spills overflowing output into the run's spill directory", async () => {
    const { host } = await create({ process: { maxBufferBytes: 4096 } });

    const result = await host.process?.spawn('head', ['-c', '100000', '/dev/zero'], {}, {});

    const spilled = result?.truncated?.stdout;
    expect(spilled).toMatchObject({ byteLength: 100_000 });
    const ref = spilled !== undefined && 'ref' in spilled ? spilled.ref : '';
    expect(ref.startsWith(path.join(base, 'state'))).toBe(true);
    expect((await readFile(ref)).length).toBe(100_000);
  });
});
