import { describe, expect, it } from 'vitest';
import { recordDispatch, replayRecord } from './dispatch-record.js';
import { OPERATOR_RESOLVED_RESULT, operatorResolvedRecord } from './operator-resolved-record.js';

describe('recordDispatch / replayRecord', () => {
  it('round-trips the bounded result, its cut, the spill handle and the full output', () => {
    const bounded = { result: 'head…tail', truncated: true, spill: { ref: '/s/1', byteLength: 9 } };
    const output = { stdout: 'the whole thing', exitCode: 0 };

    const recorded = recordDispatch({ bounded, output }, 1024);
    const replayed = recorded && replayRecord(recorded.record);

    expect(recorded?.outputDropped).toBe(false);
    expect(replayed).toEqual({ bounded, output, outputDropped: false, operatorResolved: false });
  });

  it('keeps an undefined output undefined, not null', () => {
    const recorded = recordDispatch(
      { bounded: { result: 'r', truncated: false }, output: undefined },
      1024,
    );

    expect(recorded && replayRecord(recorded.record)?.output).toBeUndefined();
  });

  it('over the cap drops the output once and replays the bounded result in its place', () => {
    const bounded = { result: 'short', truncated: true };

    const recorded = recordDispatch({ bounded, output: 'x'.repeat(2000) }, 1024);
    const replayed = recorded && replayRecord(recorded.record);

    expect(recorded?.outputDropped).toBe(true);
    expect(JSON.stringify(recorded?.record).length).toBeLessThanOrEqual(1024);
    expect(replayed).toMatchObject({ output: 'short', outputDropped: true });
  });

  it('gives up when the bounded result alone is over the cap', () => {
    expect(
      recordDispatch({ bounded: { result: 'y'.repeat(2000), truncated: false }, output: 1 }, 1024),
    ).toBeUndefined();
  });

  it('answers an operator resolution with the fixed result', () => {
    const replayed = replayRecord(operatorResolvedRecord('2026-12-01T00:00:00Z'));

    expect(replayed).toEqual({
      bounded: { result: OPERATOR_RESOLVED_RESULT, truncated: false },
      output: OPERATOR_RESOLVED_RESULT,
      outputDropped: false,
      operatorResolved: true,
    });
  });

  it.each([
    ['an unknown kind', { kind: 'other' }],
    ['another version', { kind: 'dispatched', version: 2, truncated: false }],
    ['no truncated flag', { kind: 'dispatched', version: 1 }],
    ['a malformed spill', { kind: 'dispatched', version: 1, truncated: true, spill: 'x' }],
    [
      'a malformed drop flag',
      { kind: 'dispatched', version: 1, truncated: false, outputDropped: 1 },
    ],
  ])('refuses a record with %s', (_case, record) => {
    expect(replayRecord(record)).toBeUndefined();
  });
});
