import { generateText, streamText, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { ToolExecutionError } from '@toolhost/core';
import { describe, expect, it } from 'vitest';
import { createRecordingRegistry } from '../../core/src/loop/test-support/recording-registry.js';
import { saveTool } from '../../core/src/loop/test-support/sample-tools.js';
import { isApprovedResume } from './approved-resume.js';
import { toolhostStopWhen, toolhostTools } from './index.js';
import { jammedWriteTool } from './test-support/jammed-write-tool.js';
import { answered, callsTool, says, streamed } from './test-support/mock-steps.js';

function sdkApprovalTools(): ToolSet {
  const registry = createRecordingRegistry([saveTool, jammedWriteTool]);
  return toolhostTools(registry, {
    grantedToolIds: ['save', 'jammed_write'],
    toolPolicy: {},
    approval: 'sdk',
  });
}

// The first half of the approval flow: the model asks for the call, the SDK asks the human.
async function approvedConversation(tools: ToolSet, approved = true) {
  const first = await generateText({
    model: new MockLanguageModelV3({
      doGenerate: [callsTool('jammed_write', { note: 'x' }, 'c1')],
    }),
    tools,
    prompt: 'go',
    stopWhen: toolhostStopWhen(tools),
  });
  return answered(first, first.response.messages, approved);
}

describe('an approved call that then fails fatally', () => {
  it('ends a generateText turn with the typed error and no further model call', async () => {
    const tools = sdkApprovalTools();
    const messages = await approvedConversation(tools);
    const model = new MockLanguageModelV3({ doGenerate: [says('never')] });

    const resumed = generateText({ model, tools, messages, stopWhen: toolhostStopWhen(tools) });

    await expect(resumed).rejects.toBeInstanceOf(ToolExecutionError);
    await expect(resumed).rejects.toMatchObject({ reason: 'disk_full' });
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('ends a streamText turn with the typed error and no further model call', async () => {
    const tools = sdkApprovalTools();
    const messages = await approvedConversation(tools);
    const model = new MockLanguageModelV3({ doStream: [streamed(says('never'))] });
    const errors: unknown[] = [];

    const result = streamText({
      model,
      tools,
      messages,
      stopWhen: toolhostStopWhen(tools),
      onError: ({ error }) => void errors.push(error),
    });
    const parts: { type: string; error?: unknown }[] = [];
    for await (const part of result.fullStream) parts.push(part);

    expect(model.doStreamCalls).toHaveLength(0);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ToolExecutionError);
    expect(parts.filter((part) => part.type === 'error').map((part) => part.error)).toEqual(errors);
  });

  it('still resumes normally when the approved call succeeds', async () => {
    const tools = sdkApprovalTools();
    const first = await generateText({
      model: new MockLanguageModelV3({ doGenerate: [callsTool('save', { note: 'x' }, 'c1')] }),
      tools,
      prompt: 'go',
      stopWhen: toolhostStopWhen(tools),
    });
    const model = new MockLanguageModelV3({ doGenerate: [says('saved')] });

    const second = await generateText({
      model,
      tools,
      messages: answered(first, first.response.messages, true),
      stopWhen: toolhostStopWhen(tools),
    });

    expect(second.text).toBe('saved');
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('tells the model about a rejected call, as the SDK flow does', async () => {
    const tools = sdkApprovalTools();
    const messages = await approvedConversation(tools, false);
    const model = new MockLanguageModelV3({ doGenerate: [says('understood')] });

    const second = await generateText({
      model,
      tools,
      messages,
      stopWhen: toolhostStopWhen(tools),
    });

    expect(second.text).toBe('understood');
    expect(model.doGenerateCalls).toHaveLength(1);
  });
});

describe('isApprovedResume', () => {
  const request = (toolCallId: string, approvalId: string) => ({
    role: 'assistant' as const,
    content: [{ type: 'tool-approval-request' as const, approvalId, toolCallId }],
  });
  const response = (approvalId: string, approved: boolean) => ({
    role: 'tool' as const,
    content: [{ type: 'tool-approval-response' as const, approvalId, approved }],
  });

  it('holds only for the call an approval in the last message answers', () => {
    const messages = [request('c1', 'a1'), request('c2', 'a2'), response('a1', true)];

    expect(isApprovedResume(messages, 'c1')).toBe(true);
    expect(isApprovedResume(messages, 'c2')).toBe(false);
    expect(isApprovedResume([request('c1', 'a1'), response('a1', false)], 'c1')).toBe(false);
    // An approval earlier in the conversation does not cover a call made in a later step.
    expect(
      isApprovedResume([request('c1', 'a1'), response('a1', true), request('c1', 'a9')], 'c1'),
    ).toBe(false);
  });
});
