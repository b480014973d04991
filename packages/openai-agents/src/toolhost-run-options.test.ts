import { Agent, run, setTracingDisabled } from '@openai/agents';
import { createToolRegistry, ToolArgsInvalidError, UnknownToolError } from '@toolhost/core';
import { describe, expect, it } from 'vitest';
import { echoTool, linesTool } from '../../core/src/loop/test-support/sample-tools.js';
import { resultsIn, ScriptedModel, type ScriptedTurn } from './test-support/scripted-model.js';
import { toolhostAgentTools, toolhostRunError, toolhostRunOptions } from './index.js';

setTracingDisabled(true);

// `lines` is registered but not granted: an unknown-tool answer must not name it.
const registry = createToolRegistry({ tools: [echoTool, linesTool], host: {} });
const unparsable = ['echo', '{"text": "hel'] as const;
const badArgs = ['echo', '{"txt":"hello"}'] as const;

async function runScript(script: readonly ScriptedTurn[], maxCorrections: number, wired = true) {
  const tools = toolhostAgentTools(registry, {
    toolPolicy: {},
    grantedToolIds: ['echo'],
    maxCorrections,
  });
  const model = new ScriptedModel(script);
  const agent = new Agent({ name: 'assistant', instructions: 'Use the tools.', tools, model });
  const options = { maxTurns: 16, ...(wired ? toolhostRunOptions(tools) : {}) };
  const outcome = await run(agent, 'Echo hello', options).then(
    (result) => ({ finalOutput: result.finalOutput, error: undefined }),
    (error: unknown) => ({ finalOutput: undefined, error }),
  );
  return { model, ...outcome };
}

describe('toolhostRunOptions', () => {
  it('charges unparsable JSON arguments, and ends the run once the budget is spent', async () => {
    const { model, error } = await runScript([[unparsable]], 2);

    expect(toolhostRunError(error)).toBeInstanceOf(ToolArgsInvalidError);
    expect(toolhostRunError(error)).toMatchObject({ toolId: 'echo', fields: ['(root)'] });
    expect(model.requests).toHaveLength(3);
  });

  it('feeds an unknown tool back with the granted tools, within the budget', async () => {
    const { model, finalOutput } = await runScript([[['nope', '{}']], 'Done.'], 1);

    expect(finalOutput).toBe('Done.');
    expect(resultsIn(model, 1)).toMatchObject([
      {
        callId: 'call_0_0',
        output: { text: 'unknown tool "nope"; available tools: echo' },
      },
    ]);
  });

  it('ends the run with UnknownToolError before the next model call once the budget is spent', async () => {
    const { model, error } = await runScript([[['nope', '{}']]], 1);

    expect(toolhostRunError(error)).toBeInstanceOf(UnknownToolError);
    expect(model.requests).toHaveLength(2);
  });

  it('charges every kind of correction in one response once', async () => {
    const { finalOutput } = await runScript([[unparsable, badArgs, ['nope', '{}']], 'Done.'], 1);

    expect(finalOutput).toBe('Done.');
  });

  it('without the options, an unknown tool rejects the run as the SDK does', async () => {
    const { error, model } = await runScript([[['nope', '{}']], 'Done.'], 3, false);

    expect(error).toMatchObject({ name: 'ModelBehaviorError' });
    expect(model.requests).toHaveLength(1);
  });

  it('refuses tools toolhostAgentTools did not build', () => {
    expect(() => toolhostRunOptions([])).toThrow(TypeError);
  });
});
