import { generateText, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { BUILTIN_TOOLS, ToolPolicyError, type ToolPolicy } from '@toolhost/core';
import { describe, expect, it } from 'vitest';
import { createRecordingRegistry } from '../../core/src/loop/test-support/recording-registry.js';
import { echoTool } from '../../core/src/loop/test-support/sample-tools.js';
import {
  toolhostApprovalPreview,
  toolhostStopWhen,
  toolhostTools,
  toolhostTurnError,
} from './index.js';
import { callsTool, says } from './test-support/mock-steps.js';

const TOKEN = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';

function commandTools(toolPolicy: ToolPolicy) {
  const registry = createRecordingRegistry([...BUILTIN_TOOLS, echoTool]);
  const tools = toolhostTools(registry, {
    grantedToolIds: ['run_command', 'echo'],
    toolPolicy,
    approval: 'sdk',
  });
  return { registry, tools };
}

async function firstRound(tools: ToolSet, input: unknown) {
  const model = new MockLanguageModelV3({
    doGenerate: [callsTool('run_command', input, 'c1'), says('never')],
  });
  const result = await generateText({
    model,
    tools,
    prompt: 'go',
    stopWhen: toolhostStopWhen(tools),
  });
  return { model, result };
}

describe("approval: 'sdk'", () => {
  it('never puts a call the policy refuses to a human, and ends the turn on the refusal', async () => {
    const { tools } = commandTools({ allowedCommands: ['npm test'] });

    const { model, result } = await firstRound(tools, { command: 'rm', args: ['-rf', '/'] });

    expect(result.content.filter((part) => part.type === 'tool-approval-request')).toEqual([]);
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(toolhostTurnError(tools, result.steps)).toBeInstanceOf(ToolPolicyError);
  });

  it('asks the human about an allowed governed call and previews it scrubbed, not raw', async () => {
    const { registry, tools } = commandTools({ allowedCommandGlobs: ['deploy *'] });
    const input = { command: 'deploy', args: ['-H', `Authorization: Bearer ${TOKEN}`] };

    const { result } = await firstRound(tools, input);

    const request = result.content.find((part) => part.type === 'tool-approval-request');
    expect(request?.type).toBe('tool-approval-request');
    expect(registry.calls).toEqual([]);
    if (request?.type !== 'tool-approval-request') return;
    // The SDK's own part carries the raw input; the preview is what a human may be shown.
    expect(JSON.stringify(request.toolCall.input)).toContain(TOKEN);
    const shown = toolhostApprovalPreview(tools, request);
    expect(shown).toEqual({
      toolId: 'run_command',
      action: 'process',
      preview: { command: 'deploy -H Authorization: Bearer [redacted]' },
    });
    expect(JSON.stringify(shown)).not.toContain('ghp_');
  });

  it('previews only a governed toolhost call', () => {
    const { tools } = commandTools({ allowedCommands: [] });
    const mine = { ...tools, other: { ...tools['echo'] } } as ToolSet;
    const call = (toolName: string, input: unknown) => ({
      toolCall: { toolCallId: 'c1', toolName, input },
    });

    expect(() => toolhostApprovalPreview(mine, call('echo', { text: 'hi' }))).toThrow(TypeError);
    expect(() => toolhostApprovalPreview(mine, call('other', { text: 'hi' }))).toThrow(TypeError);
    expect(() => toolhostApprovalPreview(mine, call('run_command', { command: 'rm' }))).toThrow(
      ToolPolicyError,
    );
  });

  it('refuses a registry that cannot preflight: a refused call could reach a human', () => {
    const { registry } = commandTools({});
    const { preflight: _dropped, ...withoutPreflight } = registry;

    expect(() =>
      toolhostTools(withoutPreflight, {
        grantedToolIds: ['run_command'],
        toolPolicy: {},
        approval: 'sdk',
      }),
    ).toThrow(TypeError);
  });
});
