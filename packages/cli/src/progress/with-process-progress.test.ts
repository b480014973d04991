import type { ToolHost } from '@toolhost/core';
import type { ProcessResult } from '@toolhost/core/host';
import { describe, expect, it } from 'vitest';
import { createOutputTail } from './output-tail.js';
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

  it('shows the last output line beside the elapsed time, cut to the terminal width', async () => {
    const { stream, writes } = fakeStream(true);
    Object.assign(stream, { columns: 60 });
    const tail = createOutputTail();
    const print = (text: string): void =>
      tail.observe({ stream: 'stdout', chunk: new TextEncoder().encode(`${text}\n`) });
    print('left over from the previous command');
    const host = withProcessProgress(slowHost(80), { stream, delayMs: 5, intervalMs: 10, tail });

    const spawned = host.process?.spawn('make', [], {}, {});
    await new Promise((resolve) => setTimeout(resolve, 2));
    print('linking the final binary, which takes a while on a two-core machine');
    await spawned;

    const drawn = writes.filter((text) => text.includes('running'));
    expect(drawn.some((text) => text.includes('│ linking'))).toBe(true);
    expect(drawn.every((text) => !text.includes('left over'))).toBe(true);
    expect(drawn.every((text) => [...text.replace('\r\x1b[2K', '')].length <= 59)).toBe(true);
  });

  it('draws a hostile executable name inert', async () => {
    const { stream, writes } = fakeStream(true);
    const host = withProcessProgress(slowHost(60), { stream, delayMs: 5, intervalMs: 10 });

    await host.process?.spawn('./bin/\x1b]0;owned\x07\nfake', [], {}, {});

    const drawn = writes.filter((text) => text.includes('running'));
    expect(drawn.length).toBeGreaterThan(0);
    expect(drawn.join('')).not.toContain('\x1b]');
    expect(drawn.join('')).not.toContain('\x07');
    expect(drawn.join('')).not.toContain('\n');
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
