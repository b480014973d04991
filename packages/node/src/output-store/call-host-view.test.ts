import { mkdtemp, readdir, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createToolRegistry,
  defineTool,
  unwrapUntrusted,
  type ToolDispatchContext,
  type ToolHost,
} from '@toolhost/core';
import type { ProcessResult } from '@toolhost/core/host';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createNodeToolHost, type NodeToolHostHandle } from '../create-node-tool-host.js';

const MiB = 1024 * 1024;
const CONTEXT: ToolDispatchContext = {
  nodeId: 'node',
  grantedToolIds: new Set(['greedy']),
  config: {},
  toolPolicy: {},
  fsScope: 'sandboxed',
  gateApproved: true,
  limits: { maxBytes: 4096, maxLines: 50 },
};

// A tool that tries every way out of its call's spill budget: it spawns without passing any call
// options, spills through the store itself, and asks its view for a fresh one.
type Escape = (host: ToolHost) => Promise<unknown>;

describe('per-call host view: one spill budget for everything a call does', () => {
  let base = '';
  let handle: NodeToolHostHandle | undefined;
  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-call-view-')));
  });
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
    await rm(base, { recursive: true, force: true });
  });

  const dispatchWith = async (maxBytesPerCall: number, escape: Escape) => {
    handle = await createNodeToolHost({
      root: base,
      stateDir: path.join(base, 'state'),
      runId: 'view-run',
      spillQuota: { maxBytesPerCall },
      process: { maxBufferBytes: 64 * 1024, timeoutMs: 30_000 },
    });
    // No policyTarget would be refused for a process tool: the target is the command it runs.
    const greedy = defineTool({
      id: 'greedy',
      description: 'spills as much as it can',
      args: z.strictObject({}),
      policy: { fsScoped: false, spawnsProcess: false, requiresGateApproval: false },
      dispatch: (_args, host) => escape(host),
    });
    const registry = createToolRegistry({ tools: [greedy], host: handle.host });
    return registry.dispatch({ id: '1', name: 'greedy', args: {} }, CONTEXT);
  };
  const spilledFileBytes = async (): Promise<number> => {
    const directory = path.join(base, 'state', 'spill', 'view-run');
    const sizes = await Promise.all(
      (await readdir(directory)).map(async (name) => (await stat(path.join(directory, name))).size),
    );
    return sizes.reduce((sum, size) => sum + size, 0);
  };
  const write4MiB = (host: ToolHost): Promise<ProcessResult> => {
    if (host.process === undefined) throw new Error('no process arm');
    return host.process.spawn('head', ['-c', String(4 * MiB), '/dev/zero'], {}, {});
  };

  it('charges two spawns without call options to one budget', async () => {
    const results: ProcessResult[] = [];
    await dispatchWith(6 * MiB, async (host) => {
      results.push(await write4MiB(host), await write4MiB(host));
      return 'done';
    });

    expect(results[0]?.truncated?.stdout).not.toHaveProperty('spilledBytes');
    expect(results[1]?.truncated?.stdout).toMatchObject({ spilledBytes: 2 * MiB });
    expect(await spilledFileBytes()).toBe(6 * MiB);
  });

  it('charges concurrent spawns of one call to one budget', async () => {
    let results: ProcessResult[] = [];
    await dispatchWith(6 * MiB, async (host) => {
      results = await Promise.all([write4MiB(host), write4MiB(host)]);
      return 'done';
    });

    const spilled = results.map((result): number => {
      const stdout = result.truncated?.stdout;
      return stdout !== undefined && 'spilledBytes' in stdout
        ? Number(stdout.spilledBytes)
        : 4 * MiB;
    });
    expect(spilled.reduce((sum, bytes) => sum + bytes, 0)).toBe(6 * MiB);
    expect(await spilledFileBytes()).toBe(6 * MiB);
  });

  it("charges the tool's own spill and its bounded result to the spawn's budget", async () => {
    const outcome = await dispatchWith(5 * MiB, async (host) => {
      await write4MiB(host);
      await expect(
        host.outputStore?.spill('x'.repeat(MiB), { maxBytes: 4096, maxLines: 50 }),
      ).resolves.toMatchObject({ byteLength: MiB });
      // The call's budget is spent: this refusal is the budget's, not a fresh one's.
      await expect(host.outputStore?.spill('x', LIMITS)).rejects.toMatchObject({
        reason: 'spill_quota_exceeded',
      });
      return 'y'.repeat(64 * 1024);
    });

    expect(JSON.stringify(unwrapUntrusted(outcome.toolResult).result)).toContain(
      'full output unavailable (spill quota reached)',
    );
    expect(await spilledFileBytes()).toBe(5 * MiB);
  });

  it('gives no fresh budget to a tool that asks its view for another, or copies it', async () => {
    const results: ProcessResult[] = [];
    await dispatchWith(6 * MiB, async (host) => {
      results.push(await write4MiB(host.forCall?.() ?? host));
      results.push(await write4MiB({ ...host }.forCall?.() ?? host));
      return 'done';
    });

    expect(results[1]?.truncated?.stdout).toMatchObject({ spilledBytes: 2 * MiB });
    expect(await spilledFileBytes()).toBe(6 * MiB);
  });

  it('gives a copy of the host with its process arm wrapped a view of that copy', async () => {
    handle = await createNodeToolHost({
      root: base,
      stateDir: path.join(base, 'state'),
      runId: 'view-run',
      spillQuota: { maxBytesPerCall: 6 * MiB },
      process: { maxBufferBytes: 64 * 1024, timeoutMs: 30_000 },
    });
    const inner = handle.host.process;
    if (inner === undefined) throw new Error('no process arm');
    let wrappedSpawns = 0;
    // As the CLI's progress reporting wraps it: a spread copy with one arm replaced.
    const copy: ToolHost = {
      ...handle.host,
      process: {
        ...inner,
        spawn: (...spawnArgs) => {
          wrappedSpawns += 1;
          return inner.spawn(...spawnArgs);
        },
      },
    };
    const results: ProcessResult[] = [];
    const greedy = defineTool({
      id: 'greedy',
      description: 'spills as much as it can',
      args: z.strictObject({}),
      policy: { fsScoped: false, spawnsProcess: false, requiresGateApproval: false },
      dispatch: async (_args, host) => {
        results.push(await write4MiB(host), await write4MiB(host));
        return 'done';
      },
    });
    const registry = createToolRegistry({ tools: [greedy], host: copy });
    await registry.dispatch({ id: '1', name: 'greedy', args: {} }, CONTEXT);

    expect(wrappedSpawns).toBe(2);
    expect(results[1]?.truncated?.stdout).toMatchObject({ spilledBytes: 2 * MiB });
  });

  it('gives each dispatch a budget of its own', async () => {
    const results: ProcessResult[] = [];
    const escape: Escape = async (host) => void results.push(await write4MiB(host));
    await dispatchWith(4 * MiB, escape);
    if (handle === undefined) throw new Error('no host');
    const greedy = defineTool({
      id: 'greedy',
      description: 'spills as much as it can',
      args: z.strictObject({}),
      policy: { fsScoped: false, spawnsProcess: false, requiresGateApproval: false },
      dispatch: (_args, host) => escape(host),
    });
    const registry = createToolRegistry({ tools: [greedy], host: handle.host });
    await registry.dispatch({ id: '2', name: 'greedy', args: {} }, CONTEXT);

    expect(results.map((result) => result.truncated?.stdout)).toEqual([
      { byteLength: 4 * MiB, ref: expect.any(String) as unknown },
      { byteLength: 4 * MiB, ref: expect.any(String) as unknown },
    ]);
    expect(await spilledFileBytes()).toBe(8 * MiB);
  });
});

const LIMITS = { maxBytes: 10, maxLines: 2 };
