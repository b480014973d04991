import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { readBlockedSyscall } from './read-blocked-syscall.js';

const linux = process.platform === 'linux';

describe.skipIf(!linux)('readBlockedSyscall', () => {
  it('reads a real process blocked in read', async () => {
    // `cat` with a pipe that never writes sits in read(0, …).
    const child = spawn('cat', [], { stdio: ['pipe', 'ignore', 'ignore'] });
    try {
      const pid = child.pid as number;
      let state = readBlockedSyscall(pid);
      for (let tries = 0; state.kind !== 'blocked' && tries < 500; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 2));
        state = readBlockedSyscall(pid);
      }
      expect(state).toMatchObject({ kind: 'blocked', firstArg: 0 });
    } finally {
      child.kill('SIGKILL');
      await once(child, 'close');
    }
  });

  it('says gone once the process and its /proc directory are gone', async () => {
    const child = spawn('true');
    const pid = child.pid as number;
    await once(child, 'close');

    expect(readBlockedSyscall(pid)).toEqual({ kind: 'gone' });
  });

  it('says unreadable, never gone, when a live process’s file cannot be read', () => {
    const denied = (): string => {
      throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
    };
    const missing = (): string => {
      throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
    };

    expect(readBlockedSyscall(process.pid, denied)).toEqual({ kind: 'unreadable' });
    expect(readBlockedSyscall(process.pid, missing)).toEqual({ kind: 'unreadable' });
  });

  it('says running when the file holds no syscall number', () => {
    expect(readBlockedSyscall(process.pid, () => 'running\n')).toEqual({ kind: 'running' });
  });
});
