import type { ProcessResult, ToolHost } from '@toolhost/core';
import { describe, expect, it } from 'vitest';
import { withProcessProgress } from './with-process-progress.js';

const done: ProcessResult = { exitCode: 0, stdout: '', stderr: '', durationMs: 1 };

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  const stream = { isTTY, write: (text: string) => writes.push(text) > 0 };
  return { stream: stream as unknown as NodeJS.WriteStream, writes };
}

function slowHost(ms: number): ToolHost {
  return {
    process: {
      spawn: () => new Promise((resolve) => setTimeout(() => resolve(done), ms)),
    },
  };
}

describe('withProcessProgress', () => {
  it('draws the elapsed time of a long spawn and clears it at the end', async () => {
    const { stream, writes } = fakeStream(true);
    const host = withProcessProgress(slowHost(120), { stream, delayMs: 20, intervalMs: 30 });

    const result = await host.process?.spawn('/usr/bin/sleep', ['9'], {}, {});

    expect(result).toBe(done);
    expect(writes.some((text) => text.includes('sleep running… 0s'))).toBe(true);
    expect(writes.at(-1)).toBe('\r\x1b[2K');
    expect(writes.join('')).not.toContain('9');
  });

  it('prints nothing for a quick spawn', async () => {
    const { stream, writes } = fakeStream(true);
    const host = withProcessProgress(slowHost(1), { stream, delayMs: 200 });

    await host.process?.spawn('ls', [], {}, {});

    expect(writes).toEqual([]);
  });

  it('leaves the host unchanged when the stream is not a terminal', () => {
    const { stream } = fakeStream(false);
    const original = slowHost(1);

    const host = withProcessProgress(original, { stream });

    expect(host).toBe(original);
  });
});
