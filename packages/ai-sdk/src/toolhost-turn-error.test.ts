import { generateText, jsonSchema, tool, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import {
  ToolArgsInvalidError,
  ToolExecutionError,
  UnknownToolError,
  type ToolDispatchError,
} from '@toolhost/core';
import { describe, expect, it } from 'vitest';
import { createRecordingRegistry } from '../../core/src/loop/test-support/recording-registry.js';
import { echoTool, failTool } from '../../core/src/loop/test-support/sample-tools.js';
import { toolhostStopWhen, toolhostTools, toolhostTurnError } from './index.js';
import { callsTool, says, type GenerateResult } from './test-support/mock-steps.js';

function toolhostOnly(maxCorrections = 0) {
  return toolhostTools(createRecordingRegistry([echoTool, failTool]), {
    grantedToolIds: ['echo', 'fail'],
    toolPolicy: {},
    maxCorrections,
  });
}

// The application's own tool beside toolhost's, as `{ ...tools, mine }` in the SDK's docs.
const throwsString = tool({
  description: 'An application tool that throws a bare string',
  inputSchema: jsonSchema<{ text?: string }>({ type: 'object', properties: {} }),
  execute: async (): Promise<string> => {
    throw 'quota exceeded for tenant 42';
  },
});

async function turn(tools: ToolSet, responses: GenerateResult[]) {
  const model = new MockLanguageModelV3({ doGenerate: responses });
  const result = await generateText({
    model,
    tools,
    prompt: 'go',
    stopWhen: toolhostStopWhen(tools),
  });
  return { model, turnError: toolhostTurnError(tools, result.steps) };
}

function unparsable(toolName: string): GenerateResult {
  const call = { type: 'tool-call' as const, toolCallId: 'c1', toolName, input: '{not json' };
  return { ...callsTool(toolName, {}), content: [call] };
}

describe('toolhostTurnError', () => {
  it('names a call to a tool the model was not offered as UnknownToolError', async () => {
    const { model, turnError } = await turn(toolhostOnly(), [
      callsTool('delete_repo', {}),
      says('x'),
    ]);

    expect(model.doGenerateCalls).toHaveLength(1);
    expect(turnError).toBeInstanceOf(UnknownToolError);
    expect((turnError as UnknownToolError).availableIds).toEqual(['echo', 'fail']);
  });

  it('names input the SDK could not parse as ToolArgsInvalidError', async () => {
    const { turnError } = await turn(toolhostOnly(), [unparsable('echo'), says('x')]);

    expect(turnError).toBeInstanceOf(ToolArgsInvalidError);
    expect(turnError?.message).toBe('tool echo args invalid: (root) (invalid)');
  });

  it('returns a typed error, never the bare string an application tool threw', async () => {
    const tools = { ...toolhostOnly(), mine: throwsString };

    const { model, turnError } = await turn(tools, [callsTool('mine', {}), says('x')]);

    expect(model.doGenerateCalls).toHaveLength(1);
    expect(turnError).toBeInstanceOf(ToolExecutionError);
    expect(turnError).toMatchObject({ toolId: 'mine', message: 'tool mine failed: tool_error' });
    expect((turnError as ToolDispatchError).cause).toBe('quota exceeded for tenant 42');
  });
});

describe('toolhostStopWhen on a merged tool set', () => {
  it("ends the turn on a toolhost tool's fatal failure beside the application's own tools", async () => {
    const tools = { ...toolhostOnly(3), mine: throwsString };

    const { model, turnError } = await turn(tools, [
      callsTool('fail', { reason: 'fatal' }),
      says('never'),
    ]);

    expect(model.doGenerateCalls).toHaveLength(1);
    expect(turnError).toMatchObject({ code: 'tool_failed', toolId: 'fail' });
  });

  it('keeps the smallest correction budget of sets merged from two toolhostTools calls', async () => {
    const strict = toolhostTools(createRecordingRegistry([failTool]), {
      grantedToolIds: ['fail'],
      toolPolicy: {},
      maxCorrections: 1,
    });
    const lenient = toolhostTools(createRecordingRegistry([echoTool]), {
      grantedToolIds: ['echo'],
      toolPolicy: {},
      maxCorrections: 5,
    });
    const bad = callsTool('echo', { txt: 'x' });

    const { model, turnError } = await turn({ ...lenient, ...strict }, [bad, bad, bad, says('x')]);

    expect(model.doGenerateCalls).toHaveLength(2);
    expect(turnError).toBeInstanceOf(ToolArgsInvalidError);
  });

  it('still refuses a set holding no toolhost tool', () => {
    expect(() => toolhostStopWhen({ mine: throwsString })).toThrow(TypeError);
  });
});
