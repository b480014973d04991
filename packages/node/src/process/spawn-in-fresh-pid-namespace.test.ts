import { execFileSync, spawn } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { mkdtemp, readdir, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolExecutionError } from '@toolhost/core';
import type { PidNamespaceAddon } from '@toolhost/pid-namespace';
import { createProcessArm } from './create-process-arm.js';
import { detectContainment, type ContainmentInfo } from './detect-containment.js';
import { spawnProcess, type SpawnPlan } from './spawn-process.js';
import { PidNamespaceError, spawnInFreshPidNamespace } from './spawn-in-fresh-pid-namespace.js';

const available = await detectContainment('auto');
const addon = available.mechanism === 'in-process' ? available.inProcess : undefined;
const EPERM = 1;

/** What a child this thread forks now would see as its PID namespace. */
function namespaceOfNextChild(): string {
  return execFileSync('readlink', ['/proc/self/ns/pid'], { encoding: 'utf8' }).trim();
}

function survivors(marker: string): string[] {
  const listing = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return listing.split('\n').filter((line) => line.includes(marker));
}

describe.runIf(addon !== undefined)('spawning in a fresh PID namespace in-process', () => {
  const own = readlinkSync('/proc/self/ns/pid');
  let root = '';
  beforeAll(async () => {
    root = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-pidns-')));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  function plan(containment: ContainmentInfo, file: string, args: string[]): SpawnPlan {
    return {
      toolId: 'run_command',
      file,
      args,
      env: { PATH: '/usr/bin:/bin' },
      cwd: root,
      timeoutMs: 5000,
      killGraceMs: 200,
      maxBufferBytes: 1024 * 1024,
      containment,
    };
  }

  it("leaves the host's later spawns in the host's own namespace", async () => {
    const arm = createProcessArm({
      root,
      sandbox: 'off',
      containment: 'pid-namespace',
      pidNamespaceMechanism: 'in-process',
    });

    const ran = await arm.spawn('true', [], {}, {});
    const afterRun = namespaceOfNextChild();
    const timedOut = await arm.spawn('sleep', ['5'], {}, { timeoutMs: 100 });
    const afterTimeout = namespaceOfNextChild();

    expect(ran.exitCode).toBe(0);
    expect(timedOut.timedOut).toBe(true);
    expect(afterRun).toBe(own);
    expect(afterTimeout).toBe(own);
    expect(readlinkSync('/proc/thread-self/ns/pid_for_children')).toBe(own);
  });

  it('moves the thread back when the spawn itself throws', () => {
    const refused = (): never => {
      throw new RangeError('a spawn that throws synchronously');
    };

    expect(() => spawnInFreshPidNamespace(addon!, refused)).toThrow(RangeError);
    expect(namespaceOfNextChild()).toBe(own);
  });

  it('moves the thread back when the executable fails to start', async () => {
    const child = spawnInFreshPidNamespace(addon!, () =>
      spawn(path.join(root, 'missing'), [], { stdio: 'ignore' }),
    );
    const failure = await new Promise((resolve) => child.once('error', resolve));

    expect(failure).toMatchObject({ code: 'ENOENT' });
    expect(namespaceOfNextChild()).toBe(own);
  });

  it('starts nothing and fails closed when entering is refused', async () => {
    const refusing: PidNamespaceAddon = {
      enterFreshPidNamespace: () => -EPERM,
      leavePidNamespace: () => 0,
    };
    const containment: ContainmentInfo = {
      mode: 'pid-namespace',
      mechanism: 'in-process',
      inProcess: refusing,
    };

    const attempt = spawnProcess(plan(containment, '/usr/bin/touch', ['started']));

    await expect(attempt).rejects.toBeInstanceOf(ToolExecutionError);
    await expect(attempt).rejects.toMatchObject({
      reason: 'containment_failed',
      cause: { name: 'PidNamespaceError', step: 'enter', errno: 'EPERM' },
    });
    expect(await readdir(root)).toEqual([]);
  });

  it('kills the child and fails closed when leaving reports a failure', async () => {
    // The real bracket, with a leave that reports EPERM after really moving the thread back.
    const failingLeave: PidNamespaceAddon = {
      enterFreshPidNamespace: () => addon!.enterFreshPidNamespace(),
      leavePidNamespace: (fd) => {
        addon!.leavePidNamespace(fd);
        return -EPERM;
      },
    };
    const containment: ContainmentInfo = {
      mode: 'pid-namespace',
      mechanism: 'in-process',
      inProcess: failingLeave,
    };
    const marker = `1000.${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;

    const attempt = spawnProcess(plan(containment, '/bin/sh', ['-c', `sleep ${marker}`]));

    await expect(attempt).rejects.toMatchObject({
      reason: 'containment_failed',
      cause: { step: 'leave', errno: 'EPERM' },
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(survivors(marker)).toEqual([]);
  });

  it('names the errno, never a path, in its message', () => {
    const error = new PidNamespaceError('enter', -EPERM);

    expect(error.message).toBe('could not enter a fresh PID namespace: EPERM');
  });
});
