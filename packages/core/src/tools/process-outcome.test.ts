import { describe, expect, it } from 'vitest';
import { ToolExecutionError } from '../errors.js';
import { MAX_SIGNAL_DETAIL_STREAM_CHARS, toProcessOutcome } from './process-outcome.js';

// Shape-valid fake value, assembled so this file itself does not look like a leak.
const TOKEN = `${'ghp_'}FAKE0123456789abcdefghijklmnopqrstuv`;

describe('toProcessOutcome', () => {
  it('returns an exit over 128 as data: only a signal is a failure', () => {
    const outcome = toProcessOutcome('run_command', {
      exitCode: 137,
      stdout: 'out',
      stderr: 'err',
      durationMs: 1,
    });

    expect(outcome).toEqual({ exitCode: 137, stdout: 'out', stderr: 'err', durationMs: 1 });
  });

  it("keeps a killed command's signal and output on the failure's detail", () => {
    const attempt = () =>
      toProcessOutcome('run_command', {
        exitCode: null,
        signal: 'SIGSEGV',
        stdout: 'partial\n',
        stderr: 'segfault at 0\n',
        durationMs: 1,
      });

    expect(attempt).toThrow(ToolExecutionError);
    expect(attempt).toThrow(
      expect.objectContaining({
        reason: 'exit_signal',
        detail: 'killed by SIGSEGV\nstdout:\npartial\n\nstderr:\nsegfault at 0\n',
      }),
    );
  });

  it('redacts and bounds each stream on the detail, keeping its end', () => {
    const stdout = `${'a'.repeat(5_000)}tail`;

    let detail: string | undefined;
    try {
      toProcessOutcome('run_command', {
        exitCode: null,
        signal: 'SIGKILL',
        stdout,
        stderr: `token ${TOKEN}`,
        durationMs: 1,
      });
    } catch (error) {
      detail = (error as ToolExecutionError).detail;
    }

    expect(detail).not.toContain(TOKEN);
    expect(detail).toContain('[redacted]');
    expect(detail).toContain('tail\nstderr:');
    expect(detail?.length).toBeLessThan(2 * MAX_SIGNAL_DETAIL_STREAM_CHARS + 200);
  });
});
