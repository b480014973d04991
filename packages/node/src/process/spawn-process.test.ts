import { execFileSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { mkdtemp, readdir, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ToolCancelledError } from '@toolhost/core';
import { createProcessArm, type ProcessArm, type ProcessArmOptions } from './create-process-arm.js';
import { createSpillQuota } from '../output-store/spill-quota.js';
import { createSpillOpener } from './create-spill-opener.js';
import {
  detectContainment,
  type ContainmentMode,
  type PidNamespaceMechanism,
} from './detect-containment.js';

const TIMEOUT_MS = 400;
const SLEEP = execFileSync('sh', ['-c', 'command -v sleep'], { encoding: 'utf8' }).trim();
const GRACE_MS = 500;
// Scheduling slack on a shared 2-core CI machine; the bound still catches a hung call.
const SLACK_MS = 2500;

const available = await detectContainment('auto');
const viaUnshare = await detectContainment('pid-namespace', { mechanism: 'unshare' });

interface ContainedCase {
  readonly mode: ContainmentMode;
  readonly mechanism?: PidNamespaceMechanism;
}
// Every contained mode this machine offers, util-linux forced beside the in-process addon.
const containedCases: ContainedCase[] = [
  ...(available.mechanism === 'in-process'
    ? [{ mode: 'pid-namespace', mechanism: 'in-process' } as const]
    : []),
  ...(viaUnshare.mechanism === 'unshare'
    ? [{ mode: 'pid-namespace', mechanism: 'unshare' } as const]
    : []),
  ...(available.mode === 'process-group' ? [] : [{ mode: 'proc-walk' } as const]),
];

/** Lines of `ps` whose command line carries `marker`. */
function survivors(marker: string): string[] {
  const listing = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return listing.split('\n').filter((line) => line.includes(marker));
}

function uniqueSleep(): string {
  // GNU sleep takes a fraction, which makes every run's processes findable by `ps`.
  return `1000.${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
}

const TREES: readonly [string, (a: string, b: string) => string][] = [
  ['a grandchild that ignores SIGTERM', (a, b) => `sh -c 'trap "" TERM; sleep ${a}' & sleep ${b}`],
  ['a background child', (a, b) => `sleep ${a} & sleep ${b}`],
  ['a setsid child holding stdout', (a, b) => `setsid sleep ${a} & sleep ${b}`],
  ['a double-forked orphan', (a, b) => `sh -c 'sleep ${a} &'; sleep ${b}`],
];

describe.each(containedCases)('spawn under $mode ($mechanism) containment', (contained) => {
  let root = '';
  let arm: ProcessArm;
  beforeAll(async () => {
    root = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-spawn-')));
    arm = createProcessArm({
      root,
      sandbox: 'off',
      containment: contained.mode,
      ...(contained.mechanism === undefined ? {} : { pidNamespaceMechanism: contained.mechanism }),
      killGraceMs: GRACE_MS,
    });
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('reports the containment it runs under', async () => {
    const described = await arm.describeContainment();

    expect(described.containment).toBe(contained.mode);
    expect(described.mechanism).toBe(contained.mechanism);
  });

  it.each(TREES)('leaves nothing of %s after a timeout', async (_case, script) => {
    const marker = uniqueSleep();
    const started = Date.now();

    const result = await arm.spawn(
      'sh',
      ['-c', script(marker, uniqueSleep())],
      {},
      { timeoutMs: TIMEOUT_MS },
    );

    expect(result.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + GRACE_MS + SLACK_MS);
    expect(survivors(marker)).toEqual([]);
  });

  it.each(TREES)('leaves nothing of %s after an abort', async (_case, script) => {
    const marker = uniqueSleep();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), TIMEOUT_MS);
    const started = Date.now();

    const attempt = arm.spawn(
      'sh',
      ['-c', script(marker, uniqueSleep())],
      {},
      {},
      controller.signal,
    );

    await expect(attempt).rejects.toBeInstanceOf(ToolCancelledError);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + GRACE_MS + SLACK_MS);
    expect(survivors(marker)).toEqual([]);
  });

  it.runIf(contained.mode === 'pid-namespace')(
    'runs the command as PID 1 of its own namespace',
    async () => {
      const result = await arm.spawn('sh', ['-c', 'echo $$; readlink /proc/self/ns/pid'], {}, {});

      const [pid, namespace] = result.stdout.split('\n');
      expect(pid).toBe('1');
      expect(namespace).toMatch(/^pid:\[\d+\]$/);
      expect(namespace).not.toBe(readlinkSync('/proc/self/ns/pid'));
    },
  );

  it('kills a setsid descendant that started with an empty environment', async () => {
    const marker = uniqueSleep();

    const result = await arm.spawn(
      'sh',
      ['-c', `setsid env -i ${SLEEP} ${marker} & sleep ${uniqueSleep()}`],
      {},
      { timeoutMs: TIMEOUT_MS },
    );

    expect(result.timedOut).toBe(true);
    expect(survivors(marker)).toEqual([]);
  });

  it('returns at once when the command exits leaving a setsid child on its stdout', async () => {
    const marker = uniqueSleep();
    const started = Date.now();

    const result = await arm.spawn('sh', ['-c', `setsid sleep ${marker} & echo started`], {}, {});

    expect(result).toMatchObject({ exitCode: 0, stdout: 'started\n' });
    expect(Date.now() - started).toBeLessThan(GRACE_MS + SLACK_MS);
    expect(survivors(marker)).toEqual([]);
  });
});

describe('spawn under plain process-group containment', () => {
  it('still returns when a setsid child it cannot reach holds stdout', async () => {
    const root = await realpath(tmpdir());
    const arm = createProcessArm({
      root,
      sandbox: 'off',
      containment: 'process-group',
      killGraceMs: GRACE_MS,
    });
    const marker = uniqueSleep();
    const started = Date.now();

    const result = await arm.spawn('sh', ['-c', `setsid sleep ${marker} & echo started`], {}, {});

    expect(result.stdout).toBe('started\n');
    expect(Date.now() - started).toBeLessThan(2 * GRACE_MS + SLACK_MS);
    for (const line of survivors(marker))
      process.kill(Number(line.trim().split(' ')[0]), 'SIGKILL');
  });
});

describe('spawn lifecycle', () => {
  let root = '';
  let spillDirectory = '';
  beforeEach(async () => {
    root = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-spawn-')));
    spillDirectory = await mkdtemp(path.join(tmpdir(), 'toolhost-spill-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(spillDirectory, { recursive: true, force: true });
  });

  it('gives the child /dev/null on stdin, so cat returns at once', async () => {
    const arm = createProcessArm({ root });
    const started = Date.now();

    const result = await arm.spawn('cat', [], {}, { timeoutMs: 10_000 });

    expect(result).toMatchObject({ exitCode: 0, stdout: '' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('starts nothing when aborted before the spawn', async () => {
    const arm = createProcessArm({ root });
    const controller = new AbortController();
    controller.abort();

    const attempt = arm.spawn('touch', ['started'], {}, {}, controller.signal);

    await expect(attempt).rejects.toBeInstanceOf(ToolCancelledError);
    expect(await readdir(root)).toEqual([]);
  });

  it("runs the child inside the runner's retainWork", async () => {
    const arm = createProcessArm({ root });
    let retained = 0;
    const retainWork = <T>(factory: () => Promise<T>): Promise<T> => {
      retained += 1;
      return factory();
    };

    const result = await arm.spawn('true', [], {}, { hostCallOptions: { retainWork } });

    expect(result.exitCode).toBe(0);
    expect(retained).toBe(1);
  });

  it('reports the exit code and both streams', async () => {
    const arm = createProcessArm({ root });

    const exited = await arm.spawn('sh', ['-c', 'echo out; echo err >&2; exit 7'], {}, {});

    expect(exited).toMatchObject({ exitCode: 7, stdout: 'out\n', stderr: 'err\n' });
  });

  it('lets an observer see output as it arrives, without altering the result', async () => {
    const seen: string[] = [];
    const arm = createProcessArm({
      root,
      onOutput: ({ stream, chunk }) => {
        seen.push(`${stream}:${Buffer.from(chunk).toString('utf8')}`);
        throw new Error('a buggy observer');
      },
    });

    const exited = await arm.spawn('sh', ['-c', 'echo out; echo err >&2'], {}, {});

    expect(exited).toMatchObject({ exitCode: 0, stdout: 'out\n', stderr: 'err\n' });
    expect(seen.sort()).toEqual(['stderr:err\n', 'stdout:out\n']);
  });

  it('reports a kill by signal', async () => {
    // A namespace init cannot signal itself, so the self-kill runs without one.
    const arm = createProcessArm({ root, sandbox: 'off', containment: 'proc-walk' });

    const killed = await arm.spawn('sh', ['-c', 'kill -KILL $$'], {}, {});

    expect(killed).toMatchObject({ exitCode: null, signal: 'SIGKILL' });
  });

  it('bounds 1 GiB of stdout in memory and spills it as it arrives', async () => {
    // A quota that holds the whole GiB: this test is about memory, not the spill quota.
    const quota = createSpillQuota({ maxBytesPerCall: 1024 ** 3 });
    const arm = createProcessArm({ root, openSpill: createSpillOpener(spillDirectory, quota) });
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);

    const result = await arm.spawn(
      'head',
      ['-c', String(1024 ** 3), '/dev/zero'],
      {},
      { timeoutMs: 120_000 },
    );
    clearInterval(sampler);

    expect(result.exitCode).toBe(0);
    expect(Buffer.byteLength(result.stdout)).toBeLessThan(1024 * 1024 + 200);
    const spilled = result.truncated?.stdout;
    expect(spilled).toMatchObject({ byteLength: 1024 ** 3 });
    expect(spilled !== undefined && 'ref' in spilled && (await stat(spilled.ref)).size).toBe(
      1024 ** 3,
    );
    expect(peak - before).toBeLessThan(64 * 1024 * 1024);
  }, 120_000);

  it.runIf(available.prlimit !== undefined)('stops a CPU spinner at its CPU budget', async () => {
    const arm = createProcessArm({ root, budgets: { cpuSeconds: 1 } });

    const result = await arm.spawn('sh', ['-c', 'while :; do :; done'], {}, { timeoutMs: 20_000 });

    expect(result.timedOut).toBeUndefined();
    expect(result.exitCode).toBeNull();
    expect(['SIGXCPU', 'SIGKILL']).toContain(result.signal);
    expect(result.stderr).not.toContain('unshare');
  });

  it.runIf(available.prlimit !== undefined)(
    'stops a memory hog at its address-space budget',
    async () => {
      const arm = createProcessArm({ root, budgets: { addressSpaceBytes: 256 * 1024 * 1024 } });

      const result = await arm.spawn(
        'sh',
        ['-c', 'x=$(head -c 600000000 /dev/zero | tr "\\0" a); echo "${#x}"'],
        {},
        { timeoutMs: 20_000 },
      );

      expect(result.timedOut).toBeUndefined();
      expect(result.stdout).not.toContain('600000000');
      expect(result.exitCode === 0).toBe(false);
    },
  );

  it.each([
    ['a relative root', { root: 'app' }],
    ['a timeout past 10 minutes', { maxTimeoutMs: 600_001 }],
    ['a negative grace', { killGraceMs: -1 }],
    ['an unknown containment', { containment: 'none' }],
    ['an unknown PID-namespace mechanism', { pidNamespaceMechanism: 'bwrap' }],
    ['a fractional CPU budget', { budgets: { cpuSeconds: 0.5 } }],
  ])('refuses %s at creation', (_case, bad) => {
    const create = (): unknown => createProcessArm({ root, ...bad } as ProcessArmOptions);

    expect(create).toThrow(TypeError);
  });

  it('says when budgets are configured but cannot be enforced, and when none are', async () => {
    const withBudgets = createProcessArm({ root, budgets: { cpuSeconds: 5 } });
    const without = createProcessArm({ root });

    const described = await withBudgets.describeContainment();

    expect(described.budgets).toBe(available.prlimit === undefined ? 'unenforced' : 'prlimit');
    expect((await without.describeContainment()).budgets).toBe('none_configured');
  });
});
