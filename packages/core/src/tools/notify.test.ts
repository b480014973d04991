import { describe, expect, it } from 'vitest';
import { approvalActionClass } from '../loop/approval-action-class.js';
import { notifyTool } from './notify.js';
import { CANARY, expectArgsRejected } from './test-support/expect-args.js';
import { EMPTY_HOST, onlyCall, stubHost, testContext } from './test-support/stub-host.js';

describe('notify', () => {
  it('accepts a title and a body', () => {
    expect(notifyTool.parseArgs({ title: 'Done', body: 'Build passed' })).toEqual({
      title: 'Done',
      body: 'Build passed',
    });
  });

  it.each([
    ['a missing title', { body: 'b' }, 'title'],
    ['an empty title', { title: '', body: 'b' }, 'title'],
    ['an over-long title', { title: CANARY.repeat(20), body: 'b' }, 'title'],
    ['a missing body', { title: 't' }, 'body'],
    ['an over-long body', { title: 't', body: CANARY.repeat(300) }, 'body'],
    ['an unknown key', { title: 't', body: 'b', icon: CANARY }, 'icon'],
  ])('rejects %s, naming the field', (_case, raw, field) => {
    expectArgsRejected(notifyTool, raw, field);
  });

  it('notifies through os.notify with the signal and returns delivered', async () => {
    const { host, calls } = stubHost();
    const signal = new AbortController().signal;

    const result = await notifyTool.dispatch(
      { title: 't', body: 'b' },
      host,
      testContext({ signal }),
    );

    expect(result).toEqual({ delivered: true });
    expect(onlyCall(calls, 'os.notify')).toEqual([{ title: 't', body: 'b' }, signal]);
  });

  it('is an os action governed as os', () => {
    expect(notifyTool.policy).toMatchObject({ os: true });
    expect(approvalActionClass(notifyTool)).toBe('os');
  });

  it('fails with ToolUnavailableError naming os when the arm is absent', async () => {
    await expect(
      notifyTool.dispatch({ title: 't', body: 'b' }, EMPTY_HOST, testContext()),
    ).rejects.toMatchObject({
      capability: 'os',
    });
  });
});
