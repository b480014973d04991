import type { ToolApprovalRequest } from '@toolhost/core';
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

    expect(decision).toMatchObject({ outcome: 'reject', refusal: 'scope_escape' });
    expect(asked).toEqual([]);
  });

  it.each([
    ['a name starting with two dots', '..notes/x'],
    ['a traversal that stays inside', 'a/../b.txt'],
  ])('still asks about %s, which is inside the root', async (_c, target) => {
    const asked: string[] = [];
    const served = gate({ mode: 'ask', prompter: prompter(asked) });

    const decision = await served.confirm(write(target));

    expect(asked).toEqual([target]);
    expect(decision).toEqual({ outcome: 'reject', reason: 'rejected in the MCP client' });
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
  ] as const)('labels a refusal under %s as made by nobody (unasked)', async (_c, mode, ask) => {
    const asked: string[] = [];
    const served = gate({ mode, ...(ask ? { prompter: prompter(asked) } : {}) });

    const decision = await served.confirm(write('a.txt'));

    expect(asked).toEqual([]);
    expect(decision).toMatchObject({ outcome: 'reject', refusal: 'unasked' });
  });

  it('leaves a refusal unlabelled (user_rejected) when a human was asked and said no', async () => {
    const asked: string[] = [];
    const served = gate({ mode: 'ask', prompter: prompter(asked) });

    const decision = await served.confirm(write('a.txt'));

    expect(asked).toEqual(['a.txt']);
    expect(decision).toEqual({ outcome: 'reject', reason: 'rejected in the MCP client' });
  });
});
