import type { ToolHost } from '@toolhost/core';
import type { ProcessCapability } from '@toolhost/core/host';
import { redactText } from '@toolhost/core/redact';
import { sanitizeLineForTerminal } from '../terminal/sanitize-for-terminal.js';
import type { OutputTail } from './output-tail.js';

/** Where and how often the elapsed time is drawn. */
export interface ProgressOptions {
  readonly stream: NodeJS.WriteStream;
  /** First redraw after this long, so quick commands print nothing. */
  readonly delayMs?: number;
  readonly intervalMs?: number;
  readonly now?: () => number;
  /** The running command's last output line (from the host's output observer). */
  readonly tail?: OutputTail;
}

/**
 * Wraps the process arm so a long spawn shows its elapsed time, and with a `tail` its last output
 * line, on a TTY stderr, cut to the terminal width. Any other stream, or a non-TTY, gets the host
 * unchanged.
 */
export function withProcessProgress(host: ToolHost, options: ProgressOptions): ToolHost {
  const arm = host.process;
  if (arm === undefined || options.stream.isTTY !== true) return host;
  const progressArm: ProcessCapability = {
    spawn: async (command, args, declaredEnv, spawnOptions, signal) => {
      options.tail?.reset();
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
  // The executable name only: its arguments may carry what the preview had to redact. The name
  // is the model's too, so it gets the same redaction and inertness as the output line.
  const label = sanitizeLineForTerminal(redactText(command.split(/[\\/]/).at(-1) ?? 'command'));
  let drawn = false;
  const draw = (): void => {
    const seconds = Math.floor((now() - started) / 1_000);
    const status = `toolhost: ${label} running… ${seconds}s (Ctrl-C to cancel)`;
    const last = options.tail?.lastLine();
    const line = last === undefined ? status : `${status} │ ${last}`;
    // One terminal row: a wrapped line could not be cleared by the next redraw.
    const width = stream.columns > 0 ? stream.columns - 1 : line.length;
    stream.write(`\r\x1b[2K${[...line].slice(0, width).join('')}`);
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
