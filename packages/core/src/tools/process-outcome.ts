import { ToolExecutionError } from '../errors.js';
import { redactText } from '../redact/redact-text.js';
import type { ToolId } from '../tool-def.js';
import type { ProcessResult } from '../tool-host.js';

/** What `run_command`, `git_status` and `git_commit` return. */
export interface ProcessOutcome {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly durationMs: number;
  /** Present when a stream overflowed its buffer; says where the overflow went. */
  readonly truncated?: ProcessResult['truncated'];
}

/** The most of each stream a kill-by-signal failure carries in its `detail`. */
export const MAX_SIGNAL_DETAIL_STREAM_CHARS = 1_000;

/**
 * Shapes a finished process into the documented return. A non-zero exit is data the model can
 * read; a timeout or a kill by signal is a failure with a fixed reason code (spec §2.8). A kill by
 * signal keeps the signal's name and the end of each stream on `detail`: a crash's last lines
 * are what says why.
 */
export function toProcessOutcome(toolId: ToolId, result: ProcessResult): ProcessOutcome {
  if (result.timedOut === true) throw new ToolExecutionError(toolId, 'timed_out');
  if (result.exitCode === null) {
    throw new ToolExecutionError(toolId, 'exit_signal', { detail: signalDetail(result) });
  }
  const { exitCode, stdout, stderr, durationMs, truncated } = result;
  return truncated === undefined
    ? { exitCode, stdout, stderr, durationMs }
    : { exitCode, stdout, stderr, durationMs, truncated };
}

// `detail` reaches the model and the logs: each stream is redacted on its own before it is cut
// or joined, so neither a cut nor a neighbour's text can split a secret out of reach.
function signalDetail(result: ProcessResult): string {
  const signal = result.signal ?? 'a signal';
  return [
    `killed by ${signal}`,
    `stdout:\n${tail(redactText(result.stdout))}`,
    `stderr:\n${tail(redactText(result.stderr))}`,
  ].join('\n');
}

function tail(text: string): string {
  if (text.length <= MAX_SIGNAL_DETAIL_STREAM_CHARS) return text;
  return `[…truncated] ${text.slice(-MAX_SIGNAL_DETAIL_STREAM_CHARS)}`;
}
