import * as restate from '@restatedev/restate-sdk';
import {
  BUILTIN_TOOLS,
  EffectJournalError,
  ToolExecutionError,
  ToolPolicyError,
  type AnyToolDef,
} from '@toolhost/core';
import { describe, expect, it } from 'vitest';

import { rebuildStepError, toStepFailure } from './step-failure.js';

const tool = (id: string): AnyToolDef => {
  const def = BUILTIN_TOOLS.find((candidate) => candidate.id === id);
  if (def === undefined) throw new Error(`no ${id}`);
  return def;
};
const readFile = tool('read_file');
const writeFile = tool('write_file');

describe('how a failed dispatch leaves its step', () => {
  it('retries a transient host failure of a read (a plain error), and rebuilds it once attempts run out', () => {
    const error = new ToolExecutionError('read_file', 'io_error');

    const failure = toStepFailure(error, readFile);

    expect(failure).not.toBeInstanceOf(restate.TerminalError);
    // What the SDK hands back after the last attempt: a terminal error with the same message.
    const exhausted = new restate.TerminalError(failure.message);
    expect(rebuildStepError(exhausted, readFile, 'read_file')).toEqual(error);
  });

  it('never retries a side effect: its host failure is terminal at once', () => {
    const failure = toStepFailure(new ToolExecutionError('write_file', 'io_error'), writeFile);

    expect(failure).toBeInstanceOf(restate.TerminalError);
    expect((failure as restate.TerminalError).metadata).toMatchObject({ reason: 'io_error' });
  });

  it('makes a typed refusal terminal even for a read, and rebuilds it from metadata', () => {
    const denial = new ToolPolicyError('read_file', 'protected_path');

    const failure = toStepFailure(denial, readFile) as restate.TerminalError;

    expect(failure).toBeInstanceOf(restate.TerminalError);
    expect(failure.code).toBe(403);
    expect(rebuildStepError(failure, readFile, 'read_file')).toEqual(denial);
  });

  it('keeps the journal refusal fatal: effect_unresolved is terminal for every tool', () => {
    const unresolved = new EffectJournalError('write_file', 'effect_unresolved');

    const failure = toStepFailure(unresolved, writeFile) as restate.TerminalError;

    expect(rebuildStepError(failure, writeFile, 'write_file')).toEqual(unresolved);
  });

  it('turns a raw throw into a fixed host_error, without its text', () => {
    const failure = toStepFailure(new Error('EACCES /etc/shadow'), writeFile);

    expect(failure.message).toBe('tool write_file failed: host_error');
    expect(JSON.stringify(failure)).not.toContain('/etc/shadow');
  });

  it('fails closed on a terminal error of another origin, without its text', () => {
    const foreign = new restate.TerminalError('something at /home/user/.ssh');

    const rebuilt = rebuildStepError(foreign, writeFile, 'write_file');

    expect(rebuilt).toMatchObject({ reason: 'step_failed', retryable: false });
    expect(rebuilt.message).not.toContain('.ssh');
  });
});
