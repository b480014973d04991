import { ToolExecutionError } from '../errors.js';
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

/**
 * Shapes a finished process into the documented return. A non-zero exit is data the model can
 * read; a timeout or a kill by signal is a failure with a fixed reason code (spec §2.8).
 */
export function toProcessOutcome(toolId: ToolId, result: ProcessResult): ProcessOutcome {
  if (result.timedOut === true) throw new ToolExecutionError(toolId, 'timed_out');
  if (result.exitCode === null) throw new ToolExecutionError(toolId, 'exit_signal');
  const { exitCode, stdout, stderr, durationMs, truncated } = result;
  return truncated === undefined
    ? { exitCode, stdout, stderr, durationMs }
    : { exitCode, stdout, stderr, durationMs, truncated };
}
