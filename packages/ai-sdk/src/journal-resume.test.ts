import { generateText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { createToolRegistry, defineTool } from '@toolhost/core';
import { createMemoryEffectJournal } from '@toolhost/core/journal';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolhostStopWhen, toolhostTools } from './index.js';

type GenerateResult = Awaited<ReturnType<NonNullable<MockLanguageModelV3['doGenerate']>>>;

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

// The model's recorded turn: one write, then a final answer.
const STEPS: GenerateResult[] = [
  {
    content: [
      { type: 'tool-call', toolCallId: 'call-1', toolName: 'append', input: '{"line":"once"}' },
    ],
    finishReason: { unified: 'tool-calls', raw: 'tool_use' },
    usage,
    warnings: [],
  },
  {
    content: [{ type: 'text', text: 'done' }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage,
    warnings: [],
  },
];

describe('toolhostTools with a journal', () => {
  it('replays a resumed conversation (same run, same call ids) instead of repeating the write', async () => {
    const lines: string[] = [];
    const append = defineTool({
      id: 'append',
      description: 'Append a line',
      args: z.strictObject({ line: z.string() }),
      policy: { fsScoped: true, fsWrite: true, spawnsProcess: false, requiresGateApproval: false },
      dispatch: async ({ line }) => ({ appended: lines.push(line) }),
    });
    const registry = createToolRegistry({ tools: [append], host: {} });
    const journal = { store: createMemoryEffectJournal(), runId: 'run-1' };
    const turn = async () => {
      const tools = toolhostTools(registry, {
        grantedToolIds: ['append'],
        toolPolicy: {},
        journal,
      });
      const model = new MockLanguageModelV3({ doGenerate: STEPS });
      const result = await generateText({
        model,
        tools,
        prompt: 'go',
        stopWhen: toolhostStopWhen(tools),
      });
      return { result, model };
    };

    const first = await turn();
    const resumed = await turn();

    expect(lines).toEqual(['once']);
    expect(resumed.result.text).toBe('done');
    expect(resumed.result.steps[0]?.toolResults.map((part) => part.output)).toEqual(
      first.result.steps[0]?.toolResults.map((part) => part.output),
    );
    expect(resumed.model.doGenerateCalls[1]?.prompt).toEqual(
      first.model.doGenerateCalls[1]?.prompt,
    );
  });
});
