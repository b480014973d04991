import { execFileSync } from 'node:child_process';
import type * as ChildProcesses from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';

// The real `spawn`, with every child it starts kept for the test: Node emits 'error' on a child
// whose kill fails, which no real command can be made to do on demand, so the test emits it on
// the real child the way Node would.
const started: ChildProcess[] = [];
vi.mock('node:child_process', async (load) => {
  const real = await load<typeof ChildProcesses>();
  return {
    ...real,
    spawn: (...args: Parameters<typeof real.spawn>) => {
      const child = real.spawn(...args);
      started.push(child);
      return child;
    },
  };
});

const { spawnProcess } = await import('./spawn-process.js');

const SLEEP = execFileSync('sh', ['-c', 'command -v sleep'], { encoding: 'utf8' }).trim();

function isAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('spawnProcess when its child emits error', () => {
  afterEach(() => {
    for (const child of started.splice(0)) {
      if (child.pid !== undefined && isAlive(child.pid)) process.kill(-child.pid, 'SIGKILL');
    }
  });

  it('hears a second error, kills the tree once, and still settles', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const call = spawnProcess({
        toolId: 'run_command',
        file: SLEEP,
        args: ['30'],
        env: { PATH: '/usr/bin:/bin' },
        cwd: '/',
        timeoutMs: 20_000,
        killGraceMs: 500,
        maxBufferBytes: 1024,
        containment: { mode: 'process-group' },
      });
      const child = started.at(-1);
      expect(isAlive(child?.pid)).toBe(true);

      // Node's own emissions when a kill fails; before the fix the second one threw.
      child?.emit('error', Object.assign(new Error('kill EPERM'), { code: 'EPERM' }));
      child?.emit('error', Object.assign(new Error('kill EPERM'), { code: 'EPERM' }));

      await expect(call).rejects.toMatchObject({
        name: 'ToolExecutionError',
        reason: 'spawn_failed',
      });
      expect(isAlive(child?.pid)).toBe(false);
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});
