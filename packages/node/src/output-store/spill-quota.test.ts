import { mkdtemp, readdir, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createToolRegistry, unwrapUntrusted, type ToolDispatchContext } from '@toolhost/core';
import type { ProcessResult } from '@toolhost/core/host';
import { runCommandTool } from '@toolhost/core/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeToolHost, type NodeToolHostHandle } from '../create-node-tool-host.js';
import { createOutputStore } from './create-output-store.js';
import {
  createSpillQuota,
  DEFAULT_SPILL_BYTES_PER_CALL,
  type SpillQuotaOptions,
} from './spill-quota.js';

const MiB = 1024 * 1024;
const LIMITS = { maxBytes: 10, maxLines: 2 };

describe('spill quota', () => {
  let base = '';
  let handle: NodeToolHostHandle | undefined;
  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-spill-quota-')));
  });
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
    await rm(base, { recursive: true, force: true });
  });

  const host = async (spillQuota: SpillQuotaOptions, timeoutMs = 30_000) => {
    handle = await createNodeToolHost({
      root: base,
      stateDir: path.join(base, 'state'),
      runId: 'quota-run',
      spillQuota,
      process: { maxBufferBytes: 64 * 1024, timeoutMs },
    });
    const { process } = handle.host;
    if (process === undefined) throw new Error('no process arm');
    return process;
  };
  const spilledFileBytes = async (): Promise<number> => {
    const directory = path.join(base, 'state', 'spill', 'quota-run');
    const sizes = await Promise.all(
      (await readdir(directory)).map(async (name) => (await stat(path.join(directory, name))).size),
    );
    return sizes.reduce((sum, size) => sum + size, 0);
  };
  const shell = (script: string) => ['-c', script];

  it('cuts an endless /dev/zero at the per-call quota and says so', async () => {
    const process = await host({ maxBytesPerCall: 8 * MiB }, 1500);

    const result = await process.spawn('cat', ['/dev/zero'], {}, {});

    expect(result.timedOut).toBe(true);
    const stdout = result.truncated?.stdout;
    expect(stdout).toMatchObject({ spilledBytes: 8 * MiB });
    expect(stdout?.byteLength).toBeGreaterThan(8 * MiB);
    expect(result.stdout).toContain(`only the first ${8 * MiB} bytes at`);
    expect(result.stdout).toContain('(spill quota reached)');
    expect(await spilledFileBytes()).toBe(8 * MiB);
  });

  it('charges stdout and stderr of one call to one budget', async () => {
    const process = await host({ maxBytesPerCall: 6 * MiB });

    const result = await process.spawn(
      'sh',
      shell('head -c 4194304 /dev/zero; head -c 4194304 /dev/zero >&2'),
      {},
      {},
    );

    expect(result.exitCode).toBe(0);
    expect(result.truncated?.stdout).toMatchObject({ byteLength: 4 * MiB });
    expect(result.truncated?.stdout).not.toHaveProperty('spilledBytes');
    expect(result.truncated?.stderr).toMatchObject({ byteLength: 4 * MiB, spilledBytes: 2 * MiB });
    expect(await spilledFileBytes()).toBe(6 * MiB);
  });

  it('gives each call its own budget, all drawn from the run quota', async () => {
    const process = await host({ maxBytesPerCall: 3 * MiB, maxBytesPerRun: 5 * MiB });
    const write4MiB = (): Promise<ProcessResult> =>
      process.spawn('head', ['-c', String(4 * MiB), '/dev/zero'], {}, {});

    const first = await write4MiB();
    const second = await write4MiB();
    const third = await write4MiB();

    expect(first.truncated?.stdout).toMatchObject({ spilledBytes: 3 * MiB });
    expect(second.truncated?.stdout).toMatchObject({ spilledBytes: 2 * MiB });
    expect(third.truncated?.stdout).toEqual({ byteLength: 4 * MiB });
    expect(third.stdout).toContain('full output unavailable (spill quota reached)');
    expect(await spilledFileBytes()).toBe(5 * MiB);
  });

  it('spills a stream within the quota whole', async () => {
    const process = await host({ maxBytesPerCall: 4 * MiB });

    const result = await process.spawn('head', ['-c', String(4 * MiB), '/dev/zero'], {}, {});

    expect(result.truncated?.stdout).toMatchObject({ byteLength: 4 * MiB });
    expect(result.truncated?.stdout).not.toHaveProperty('spilledBytes');
    expect(result.stdout).toContain('full output at ');
    expect(await spilledFileBytes()).toBe(4 * MiB);
  });

  it('charges the bounded result of a dispatch to the same call as its process output', async () => {
    await host({ maxBytesPerCall: MiB });
    if (handle === undefined) throw new Error('no host');
    const registry = createToolRegistry({ tools: [runCommandTool], host: handle.host });
    const command = { command: 'head', args: ['-c', String(MiB), '/dev/zero'] };
    const context: ToolDispatchContext = {
      nodeId: 'node',
      grantedToolIds: new Set(['run_command']),
      config: {},
      toolPolicy: { allowedCommands: [`head -c ${MiB} /dev/zero`] },
      fsScope: 'sandboxed',
      gateApproved: true,
      limits: { maxBytes: 4096, maxLines: 50 },
    };

    const outcome = await registry.dispatch(
      { id: '1', name: 'run_command', args: command },
      context,
    );

    // The 1 MiB stream spills whole and spends the call's quota; the ~64 KiB result over the
    // 4 KiB ceiling is then refused by the same budget, not given a fresh one.
    expect(JSON.stringify(unwrapUntrusted(outcome.toolResult).result)).toContain(
      'full output unavailable (spill quota reached)',
    );
    expect(await spilledFileBytes()).toBe(MiB);
  });

  it('refuses a bounded result the call quota cannot hold whole, and keeps one it can', async () => {
    const store = await createOutputStore(base, 'run-a', Date.now(), { maxBytesPerCall: 1000 });

    await expect(store.spill('x'.repeat(1001), LIMITS)).rejects.toMatchObject({
      code: 'tool_failed',
      reason: 'spill_quota_exceeded',
    });
    await expect(store.spill('x'.repeat(1000), LIMITS)).resolves.toMatchObject({
      byteLength: 1000,
    });
    expect(await readdir(store.directory)).toHaveLength(1);
  });

  it('refuses results once the run quota is spent', async () => {
    const store = await createOutputStore(base, 'run-a', Date.now(), { maxBytesPerRun: 1500 });

    await store.spill('x'.repeat(1000), LIMITS);

    await expect(store.spill('x'.repeat(600), LIMITS)).rejects.toMatchObject({
      reason: 'spill_quota_exceeded',
    });
    await expect(store.spill('x'.repeat(500), LIMITS)).resolves.toMatchObject({
      byteLength: 500,
    });
  });

  it('defaults to 256 MiB per call', () => {
    const budget = createSpillQuota().callBudget();

    expect(DEFAULT_SPILL_BYTES_PER_CALL).toBe(256 * MiB);
    expect(budget.take(300 * MiB)).toBe(256 * MiB);
    expect(budget.take(1)).toBe(0);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])(
    'rejects a quota of %s at creation',
    async (bad) => {
      await expect(host({ maxBytesPerCall: bad })).rejects.toThrow(
        'toolhost: spillQuota.maxBytesPerCall must be a non-negative integer',
      );
    },
  );
});
