import type { ToolApprovalRequest } from '@toolhost/core';
import { describe, expect, it } from 'vitest';
import type { ApprovalAnswer, ApprovalPrompt, ApprovalPrompter } from './approval-prompter.js';
import { createConfirmHook } from './create-confirm-hook.js';

const paths = { root: '/w/app' };

function write(path: string, redacted = path): ToolApprovalRequest {
  return {
    toolId: 'write_file',
    action: 'fs_write',
    preview: { path: redacted },
    unredactedPreview: { path },
  };
}

const command: ToolApprovalRequest = {
  toolId: 'run_command',
  action: 'process',
  preview: { command: 'npm test' },
  unredactedPreview: { command: 'npm test' },
};

function scripted(...answers: ApprovalAnswer[]): ApprovalPrompter & { asked: ApprovalPrompt[] } {
  const asked: ApprovalPrompt[] = [];
  return {
    asked,
    ask(prompt) {
      asked.push(prompt);
      const answer = answers.shift();
      if (answer === undefined) throw new Error('unexpected prompt');
      return Promise.resolve(answer);
    },
  };
}

describe('createConfirmHook', () => {
  it.each(['ask', 'plan'] as const)('refuses every governed action in %s mode', async (mode) => {
    const prompter = scripted();
    const confirm = createConfirmHook({ mode, prompter, paths });

    const decision = await confirm(command);

    expect(decision).toMatchObject({ outcome: 'reject', reason: expect.stringMatching(/--mode/) });
    expect(prompter.asked).toHaveLength(0);
  });

  it('approves an ordinary action in auto mode without asking', async () => {
    const confirm = createConfirmHook({ mode: 'auto', paths });

    const decision = await confirm(write('src/a.ts'));

    expect(decision).toEqual({ outcome: 'approve' });
  });

  it('asks for a protected path in auto mode, judged on the unredacted path', async () => {
    const prompter = scripted({ choice: 'no' });
    const confirm = createConfirmHook({ mode: 'auto', prompter, paths });

    const decision = await confirm(write('.ssh/authorized_keys', 'x [redacted]'));

    expect(decision.outcome).toBe('reject');
    expect(prompter.asked[0]?.preview).toEqual({ path: 'x [redacted]' });
  });

  it('refuses a protected path in auto mode when no human can answer', async () => {
    const confirm = createConfirmHook({ mode: 'auto', paths, nonInteractiveReason: '--json' });

    const decision = await confirm(write('.git/hooks/pre-commit'));

    expect(decision).toMatchObject({ outcome: 'reject', reason: expect.stringMatching(/--json/) });
  });

  it.each(['.mcp.json', '.claude/settings.json', '.vscode/tasks.json', '.devcontainer/x.json'])(
    'refuses the agent/editor config %s in auto mode when no human can answer',
    async (target) => {
      const confirm = createConfirmHook({ mode: 'auto', paths, nonInteractiveReason: '--json' });

      const decision = await confirm(write(target));

      expect(decision).toMatchObject({
        outcome: 'reject',
        reason: expect.stringMatching(/--json/),
      });
    },
  );

  it('asks before an agent config in auto mode, and approves package.json unasked', async () => {
    const prompter = scripted({ choice: 'no' });
    const confirm = createConfirmHook({ mode: 'auto', prompter, paths });

    const agentConfig = await confirm(write('.cursor/mcp.json'));
    const manifest = await confirm(write('package.json'));

    expect(agentConfig.outcome).toBe('reject');
    expect(prompter.asked[0]?.note).toMatch(/protected path/);
    expect(manifest).toEqual({ outcome: 'approve' });
  });

  it('refuses in accept-edits mode without a terminal, saying how to allow it', async () => {
    const confirm = createConfirmHook({ mode: 'accept-edits', paths });

    const decision = await confirm(command);

    expect(decision).toMatchObject({
      outcome: 'reject',
      reason: expect.stringMatching(/run it in a terminal.*--mode auto/),
    });
  });

  it('asks once per call for a "once" answer', async () => {
    const prompter = scripted({ choice: 'once' }, { choice: 'no', reason: 'not now' });
    const confirm = createConfirmHook({ mode: 'accept-edits', prompter, paths });

    const first = await confirm(command);
    const second = await confirm(command);

    expect(first).toEqual({ outcome: 'approve' });
    expect(second).toEqual({ outcome: 'reject', reason: 'not now' });
  });

  it('remembers "always for this target" for that target only', async () => {
    const prompter = scripted({ choice: 'always_target' }, { choice: 'no' });
    const confirm = createConfirmHook({ mode: 'accept-edits', prompter, paths });

    await confirm(write('a.txt'));
    const again = await confirm(write('a.txt'));
    const other = await confirm(write('b.txt'));

    expect(again).toEqual({ outcome: 'approve' });
    expect(other.outcome).toBe('reject');
    expect(prompter.asked).toHaveLength(2);
  });

  it('remembers "always for this tool", except for protected paths', async () => {
    const prompter = scripted({ choice: 'always_tool' }, { choice: 'no' });
    const confirm = createConfirmHook({ mode: 'accept-edits', prompter, paths });

    await confirm(write('a.txt'));
    const other = await confirm(write('b.txt'));
    const protectedWrite = await confirm(write('.github/workflows/x.yml'));

    expect(other).toEqual({ outcome: 'approve' });
    expect(protectedWrite.outcome).toBe('reject');
  });

  it('asks in auto mode when only a move destination is protected', async () => {
    const prompter = scripted({ choice: 'no' });
    const confirm = createConfirmHook({ mode: 'auto', prompter, paths });

    const decision = await confirm(move('notes.txt', '.github/workflows/x.yml'));

    expect(decision.outcome).toBe('reject');
    expect(prompter.asked[0]?.note).toMatch(/protected path/);
  });

  it('remembers "always for this target" for a move to that destination only', async () => {
    const prompter = scripted({ choice: 'always_target' }, { choice: 'no' });
    const confirm = createConfirmHook({ mode: 'accept-edits', prompter, paths });

    await confirm(move('a.txt', 'b.txt'));
    const again = await confirm(move('a.txt', 'b.txt'));
    const elsewhere = await confirm(move('a.txt', 'c.txt'));

    expect(again).toEqual({ outcome: 'approve' });
    expect(elsewhere.outcome).toBe('reject');
  });

  it('remembers "always for this target" for one MCP server and tool only', async () => {
    const prompter = scripted({ choice: 'always_target' }, { choice: 'no' }, { choice: 'no' });
    const confirm = createConfirmHook({ mode: 'accept-edits', prompter, paths });

    await confirm(mcp('tickets', 'list'));
    const again = await confirm(mcp('tickets', 'list'));
    const otherTool = await confirm(mcp('tickets', 'delete_all'));
    const otherServer = await confirm(mcp('billing', 'list'));

    expect(again).toEqual({ outcome: 'approve' });
    expect(otherTool.outcome).toBe('reject');
    expect(otherServer.outcome).toBe('reject');
  });
});

function mcp(server: string, tool: string): ToolApprovalRequest {
  const preview = { server, tool };
  return { toolId: 'mcp_call', action: 'egress', preview, unredactedPreview: preview };
}

function move(source: string, destination: string): ToolApprovalRequest {
  const preview = { path: source, destination };
  return { toolId: 'move_file', action: 'fs_write', preview, unredactedPreview: preview };
}
