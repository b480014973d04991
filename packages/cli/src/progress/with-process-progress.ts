import type { ProcessCapability, ToolHost } from '@toolhost/core';

/** Where and how often the elapsed time is drawn. */
export interface ProgressOptions {
  readonly stream: NodeJS.WriteStream;
  /** First redraw after this long, so quick commands print nothing. */
  readonly delayMs?: number;
  readonly intervalMs?: number;
  readonly now?: () => number;
}

/**
 * Wraps the process arm so a long spawn shows its elapsed time on a TTY stderr. The seam's
 * `spawn` returns only the finished result (no output stream), so the last output line cannot be
 * shown: elapsed time only. Any other stream, or a non-TTY, gets the host unchanged.
 */
export function withProcessProgress(host: ToolHost, options: ProgressOptions): ToolHost {
  const arm = host.process;
  if (arm === undefined || options.stream.isTTY !== true) return host;
  const progressArm: ProcessCapability = {
    spawn: async (command, args, declaredEnv, spawnOptions, signal) => {
      const stop = startTicker(command, options);
      try {
        return await arm.spawn(command, args, declaredEnv, spawnOptions, signal);
      } finally {
        stop();
      }
    },
  };
  return { ...host, process: progressArm };
}

function startTicker(command: string, options: ProgressOptions): () => void {
  const { stream, delayMs = 1_000, intervalMs = 1_000, now = Date.now } = options;
  const started = now();
  // The executable name only: its arguments may carry what the preview had to redact.
  const label = command.split(/[\\/]/).at(-1) ?? 'command';
  let drawn = false;
  const draw = (): void => {
    const seconds = Math.floor((now() - started) / 1_000);
    stream.write(`\r\x1b[2Ktoolhost: ${label} running… ${seconds}s (Ctrl-C to cancel)`);
    drawn = true;
  };
  let interval: NodeJS.Timeout | undefined;
  const delay = setTimeout(() => {
    draw();
    interval = setInterval(draw, intervalMs);
    interval.unref();
  }, delayMs);
  delay.unref();
  return () => {
    clearTimeout(delay);
    if (interval !== undefined) clearInterval(interval);
    if (drawn) stream.write('\r\x1b[2K');
  };
}
