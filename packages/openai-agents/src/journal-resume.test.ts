import { Agent, run, setTracingDisabled } from '@openai/agents';
import { createToolRegistry, defineTool } from '@toolhost/core';
import { createMemoryEffectJournal } from '@toolhost/core/journal';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolhostAgentTools } from './index.js';
import { resultsIn, ScriptedModel } from './test-support/scripted-model.js';

setTracingDisabled(true);

describe('toolhostAgentTools with a journal', () => {
  it('replays a resumed run (same run, same call ids) instead of repeating the write', async () => {
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
      const tools = toolhostAgentTools(registry, {
        toolPolicy: {},
        grantedToolIds: ['append'],
        journal,
      });
      // The scripted model names its calls by position: a replayed response has the same ids.
      const model = new ScriptedModel([[['append', '{"line":"once"}']], 'Done.']);
      const agent = new Agent({ name: 'assistant', instructions: 'Use the tools.', tools, model });
      const result = await run(agent, 'Append once', { maxTurns: 4 });
      return { model, finalOutput: result.finalOutput };
    };

    const first = await turn();
    const resumed = await turn();

    expect(lines).toEqual(['once']);
    expect(resumed.finalOutput).toBe('Done.');
    expect(resultsIn(resumed.model, 1)).toEqual(resultsIn(first.model, 1));
    expect(resultsIn(resumed.model, 1)).toHaveLength(1);
  });
});
