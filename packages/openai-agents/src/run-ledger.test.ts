import { Agent, run, setTracingDisabled, type FunctionTool } from '@openai/agents';
import { createToolRegistry, ToolArgsInvalidError } from '@toolhost/core';
import { describe, expect, it } from 'vitest';
import { echoTool } from '../../core/src/loop/test-support/sample-tools.js';
import { createRunLedgers } from './run-ledger.js';
import { resultsIn, ScriptedModel, type ScriptedTurn } from './test-support/scripted-model.js';
import { toolhostAgentTools, toolhostRunError } from './index.js';

setTracingDisabled(true);

const registry = createToolRegistry({ tools: [echoTool], host: {} });
const badArgs = ['echo', '{"txt":"hello"}'] as const;

function echoTools(maxCorrections: number): FunctionTool[] {
  return toolhostAgentTools(registry, { toolPolicy: {}, grantedToolIds: ['echo'], maxCorrections });
}

async function runScript(tools: FunctionTool[], script: readonly ScriptedTurn[]) {
  const model = new ScriptedModel(script);
  const agent = new Agent({ name: 'assistant', instructions: 'Use the tools.', tools, model });
  const outcome = await run(agent, 'Echo hello', { maxTurns: 16 }).then(
    (result) => ({ finalOutput: result.finalOutput, error: undefined }),
    (error: unknown) => ({ finalOutput: undefined, error }),
  );
  return { model, ...outcome };
}

describe('the correction budget of a run', () => {
  it('runs out when the model reports no usage', async () => {
    const { model, error } = await runScript(echoTools(2), [[badArgs]]);

    expect(toolhostRunError(error)).toBeInstanceOf(ToolArgsInvalidError);
    expect(model.requests).toHaveLength(3);
    expect(resultsIn(model, 2)).toHaveLength(2);
  });

  it('charges one correction per model response, however many bad calls it holds', async () => {
    const script = [[badArgs, badArgs], [badArgs, badArgs], 'Done.'];

    expect((await runScript(echoTools(2), script)).finalOutput).toBe('Done.');
    const spent = await runScript(echoTools(1), script);
    expect(toolhostRunError(spent.error)).toBeInstanceOf(ToolArgsInvalidError);
    expect(spent.model.requests).toHaveLength(2);
  });

  it('gives each run a fresh budget', async () => {
    const tools = echoTools(1);

    expect((await runScript(tools, [[badArgs], 'Done.'])).finalOutput).toBe('Done.');
    expect((await runScript(tools, [[badArgs], 'Done.'])).finalOutput).toBe('Done.');
  });
});

describe('createRunLedgers', () => {
  it('starts a round when a tool is listed again, not when another tool is', () => {
    const ledger = createRunLedgers(3)({});
    ledger.listed('a');
    ledger.listed('b');
    expect(ledger.round).toBe(0);
    ledger.listed('a');
    ledger.listed('b');
    expect(ledger.round).toBe(1);
  });
});
