import { describe, expect, it } from 'vitest';
import { approvalActionClass } from '../loop/approval-action-class.js';
import { readClipboardTool } from './read-clipboard.js';
import { expectArgsRejected } from './test-support/expect-args.js';
import { EMPTY_HOST, onlyCall, stubHost, testContext } from './test-support/stub-host.js';

describe('read_clipboard', () => {
  it('takes no arguments', () => {
    expect(readClipboardTool.parseArgs({})).toEqual({});
    expect(readClipboardTool.llmVisibleParams).toEqual({
      type: 'object',
      properties: {},
      additionalProperties: false,
    });
  });

  it('rejects any argument, naming it', () => {
    expectArgsRejected(readClipboardTool, { format: 'html' }, 'format');
  });

  it('reads the clipboard with the signal and returns the text', async () => {
    const { host, calls } = stubHost({ readClipboard: () => 'copied' });
    const signal = new AbortController().signal;

    const result = await readClipboardTool.dispatch({}, host, testContext({ signal }));

    expect(result).toBe('copied');
    expect(onlyCall(calls, 'os.readClipboard')).toEqual([signal]);
  });

  it('is an os action governed as os', () => {
    expect(readClipboardTool.policy).toMatchObject({
      os: true,
      spawnsProcess: false,
      fsScoped: false,
    });
    expect(approvalActionClass(readClipboardTool)).toBe('os');
  });

  it('fails with ToolUnavailableError naming os when the arm is absent', async () => {
    await expect(readClipboardTool.dispatch({}, EMPTY_HOST, testContext())).rejects.toMatchObject({
      capability: 'os',
    });
  });
});
