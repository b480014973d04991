import { ToolDeniedByUserError, ToolPolicyError, type ToolApprovalRequest } from '@toolhost/core';
import { describe, expect, it } from 'vitest';
import type { ApprovalPrompter } from '../approval/approval-prompter.js';
import {
  ApprovalCache,
  createServeConfirm,
  type ServeConfirmOptions,
} from './create-serve-confirm.js';

const ROOT = '/work/app';
const write = (target: string): ToolApprovalRequest => ({
  toolId: 'write_file',
  action: 'fs_write',
  preview: { path: target },
  unredactedPreview: { path: target },
});
const rejected = (reason: string) =>
  new ToolDeniedByUserError('write_file', 'user_rejected', { userReason: reason });

function gate(options: Partial<ServeConfirmOptions> & Pick<ServeConfirmOptions, 'mode'>) {
  return createServeConfirm({
    paths: { root: ROOT },
    cache: new ApprovalCache(),
    fsScope: 'sandboxed',
    ...options,
  });
}

function prompter(asked: string[]): ApprovalPrompter {
  return {
    ask: async (prompt) => {
      asked.push(prompt.preview.path ?? '');
      return { choice: 'no', reason: 'rejected in the MCP client' };
    },
  };
}

describe('createServeConfirm', () => {
  it.each([
    ['a parent traversal', '../x'],
    ['a sibling with the root as prefix', '../app-evil/x'],
    ['an absolute path elsewhere', '/etc/cron.d/x'],
  ])('refuses %s in the sandboxed tier as scope_escape, asking nobody', async (_c, target) => {
    const asked: string[] = [];
    const served = gate({ mode: 'ask', prompter: prompter(asked) });

    const decision = await served.confirm(write(target));
    const error = served.attribute(rejected('x'));

    expect(decision.outcome).toBe('reject');
    expect(asked).toEqual([]);
    expect(error).toBeInstanceOf(ToolPolicyError);
    expect(error).toMatchObject({ reason: 'scope_escape', recoverable: true });
  });

  it.each([
    ['a name starting with two dots', '..notes/x'],
    ['a traversal that stays inside', 'a/../b.txt'],
  ])('still asks about %s, which is inside the root', async (_c, target) => {
    const asked: string[] = [];
    const served = gate({ mode: 'ask', prompter: prompter(asked) });

    await served.confirm(write(target));

    expect(asked).toEqual([target]);
    expect(served.attribute(rejected('x'))).toMatchObject({ reason: 'user_rejected' });
  });

  it.each(['project', 'full'] as const)(
    'leaves the %s tier to the jail, which knows its roots',
    async (fsScope) => {
      const asked: string[] = [];
      const served = gate({ mode: 'ask', prompter: prompter(asked), fsScope });

      await served.confirm(write('../x'));

      expect(asked).toEqual(['../x']);
    },
  );

  it.each([
    ['plan', 'plan', true],
    ['ask without elicitation', 'ask', false],
    ['accept-edits without elicitation', 'accept-edits', false],
  ] as const)('attributes a refusal under %s to no_approval_hook', async (_c, mode, ask) => {
    const served = gate({ mode, ...(ask ? { prompter: prompter([]) } : {}) });

    await served.confirm(write('a.txt'));
    const error = served.attribute(rejected('why'));

    expect(error).toBeInstanceOf(ToolDeniedByUserError);
    expect(error).toMatchObject({ reason: 'no_approval_hook', userReason: 'why' });
  });

  it('keeps user_rejected when a human was asked and said no', async () => {
    const served = gate({ mode: 'ask', prompter: prompter([]) });

    await served.confirm(write('a.txt'));

    expect(served.attribute(rejected('rejected in the MCP client'))).toMatchObject({
      reason: 'user_rejected',
    });
  });

  it('returns every error it did not cause unchanged', async () => {
    const served = gate({ mode: 'plan' });
    const other = new ToolPolicyError('write_file', 'protected_path');

    await served.confirm(write('a.txt'));

    expect(served.attribute(other)).toBe(other);
  });
});
