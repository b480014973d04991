import { describe, expect, it } from 'vitest';
import { readSandboxExit } from './process-exit.js';

describe('readSandboxExit', () => {
  it("takes the init's record over bwrap's code", () => {
    expect(readSandboxExit({ exitCode: 137, exitSignal: null }, 137, null)).toEqual({
      exitCode: 137,
      exitSignal: null,
    });
    expect(readSandboxExit({ exitCode: null, exitSignal: 'SIGKILL' }, 137, null)).toEqual({
      exitCode: null,
      exitSignal: 'SIGKILL',
    });
  });

  it('keeps a missing record as the exit code bwrap gave, never a signal read into it', () => {
    expect(readSandboxExit('unknown', 137, null)).toEqual({ exitCode: 137, exitSignal: null });
  });

  it('reads a code over 128 as a signal only when no init was built (the old approximation)', () => {
    expect(readSandboxExit('no_wait_init', 137, null)).toEqual({
      exitCode: null,
      exitSignal: 'SIGKILL',
    });
    expect(readSandboxExit('no_wait_init', 2, null)).toEqual({ exitCode: 2, exitSignal: null });
  });

  it('reports the signal that ended bwrap itself (the host timeout kill) whatever the record', () => {
    expect(readSandboxExit('unknown', null, 'SIGTERM')).toEqual({
      exitCode: null,
      exitSignal: 'SIGTERM',
    });
  });
});
