import { describe, expect, it } from 'vitest';
import { approvalActionClass } from '../loop/approval-action-class.js';
import { classifyToolError, ToolExecutionError } from '../errors.js';
import { runCommandTool } from './run-command.js';
import { CANARY, expectArgsRejected } from './test-support/expect-args.js';
import {
  effectiveArgs,
  EMPTY_HOST,
  onlyCall,
  stubHost,
  testContext,
} from './test-support/stub-host.js';

describe('run_command', () => {
  it('accepts a command with arguments and the config-only cwd, timeoutMs and env', () => {
    const raw = { command: 'npm', args: ['test'], cwd: 'pkg', timeoutMs: 1000, env: { CI: '1' } };

    expect(runCommandTool.parseArgs(raw)).toEqual(raw);
  });

  it.each([
    ['a missing command', {}, 'command'],
    ['an empty command', { command: '' }, 'command'],
    ['an over-long command', { command: CANARY.repeat(300) }, 'command'],
    ['a non-string argument', { command: 'ls', args: [1] }, 'args.0'],
    ['too many arguments', { command: 'ls', args: Array.from({ length: 257 }, () => 'x') }, 'args'],
    ['a zero timeout', { command: 'ls', timeoutMs: 0 }, 'timeoutMs'],
    ['a timeout past 10 minutes', { command: 'ls', timeoutMs: 600_001 }, 'timeoutMs'],
    ['a fractional timeout', { command: 'ls', timeoutMs: 1.5 }, 'timeoutMs'],
    ['an env name with =', { command: 'ls', env: { 'A=B': CANARY } }, 'env.A=B'],
    ['a non-string env value', { command: 'ls', env: { A: 1 } }, 'env.A'],
    ['an unknown key', { command: 'ls', shell: true }, 'shell'],
  ])('rejects %s, naming the field', (_case, raw, field) => {
    expectArgsRejected(runCommandTool, raw, field);
  });

  it('hides cwd, timeoutMs and env from the model', () => {
    expect(runCommandTool.configOnlyParams).toEqual(['cwd', 'timeoutMs', 'env']);
    expect(Object.keys(runCommandTool.llmVisibleParams['properties'] as object)).toEqual([
      'command',
      'args',
    ]);
  });

  it('ignores config-only keys a model supplies and keeps the config values', () => {
    const modelArgs = { command: 'ls', cwd: '/etc', timeoutMs: 600_000, env: { LD_PRELOAD: 'x' } };

    const args = effectiveArgs(runCommandTool, modelArgs, { cwd: 'app' });

    expect(args).toEqual({ command: 'ls', cwd: 'app' });
  });

  it('spawns the command with args, env, cwd, timeout, host call options and the signal', async () => {
    const { host, calls } = stubHost();
    const signal = new AbortController().signal;
    const hostCallOptions = { retainWork: <T>(factory: () => Promise<T>) => factory() };
    const args = { command: 'npm', args: ['test'], cwd: 'pkg', timeoutMs: 5, env: { CI: '1' } };

    await runCommandTool.dispatch(args, host, testContext({ signal, hostCallOptions }));

    expect(onlyCall(calls, 'process.spawn')).toEqual([
      'npm',
      ['test'],
      { CI: '1' },
      { cwd: 'pkg', timeoutMs: 5, hostCallOptions },
      signal,
    ]);
  });

  it('spawns with empty args, an empty env and no undefined options by default', async () => {
    const { host, calls } = stubHost();

    await runCommandTool.dispatch({ command: 'ls' }, host, testContext());

    expect(onlyCall(calls, 'process.spawn')).toEqual(['ls', [], {}, {}, undefined]);
  });

  it('returns exitCode, stdout, stderr and durationMs, a non-zero exit as data', async () => {
    const { host } = stubHost({
      spawn: () => ({ exitCode: 2, stdout: 'o', stderr: 'e', durationMs: 9 }),
    });

    const result = await runCommandTool.dispatch({ command: 'false' }, host, testContext());

    expect(result).toEqual({ exitCode: 2, stdout: 'o', stderr: 'e', durationMs: 9 });
  });

  it('keeps the spill reference when a stream overflowed', async () => {
    const truncated = { stdout: { ref: '/spill/1', byteLength: 99 } };
    const { host } = stubHost({
      spawn: () => ({ exitCode: 0, stdout: 'o', stderr: '', durationMs: 1, truncated }),
    });

    const result = await runCommandTool.dispatch({ command: 'cat' }, host, testContext());

    expect(result).toMatchObject({ truncated });
  });

  it.each([
    ['a timeout', { exitCode: null, timedOut: true }, 'timed_out'],
    ['a kill by signal', { exitCode: null, signal: 'SIGKILL' }, 'exit_signal'],
  ])('fails on %s with a fixed reason that is not recoverable', async (_case, outcome, reason) => {
    const { host } = stubHost({
      spawn: () => ({ stdout: '', stderr: '', durationMs: 1, ...outcome }),
    });

    const attempt = runCommandTool.dispatch({ command: 'sleep' }, host, testContext());

    await expect(attempt).rejects.toBeInstanceOf(ToolExecutionError);
    await expect(attempt).rejects.toMatchObject({ reason, recoverable: false });
    expect(classifyToolError(await attempt.catch((error: unknown) => error))).toBe('fatal');
  });

  it('targets command and args joined by one space, with the argv beside it', () => {
    const target = runCommandTool.policyTarget?.({ command: 'git', args: ['log', '-n', '1'] });

    expect(target).toEqual({ command: 'git log -n 1', argv: ['git', 'log', '-n', '1'] });
  });

  it('spawns a process and is governed as process', () => {
    expect(runCommandTool.policy).toEqual({
      fsScoped: false,
      spawnsProcess: true,
      requiresGateApproval: false,
      effect: { readOnly: false, destructive: true, idempotent: false },
    });
    expect(approvalActionClass(runCommandTool)).toBe('process');
  });

  it('fails with ToolUnavailableError naming process when the arm is absent', async () => {
    await expect(
      runCommandTool.dispatch({ command: 'ls' }, EMPTY_HOST, testContext()),
    ).rejects.toMatchObject({
      code: 'tool_unavailable',
      capability: 'process',
    });
  });
});
