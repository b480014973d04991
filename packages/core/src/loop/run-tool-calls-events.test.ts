import { describe, expect, it } from 'vitest';
import type { ToolDispatchContext } from '../dispatch-context.js';
import { createCorrectionBudget } from './correction-budget.js';
import { runToolCalls } from './run-tool-calls.js';
import { createRecordingRegistry } from './test-support/recording-registry.js';
import { echoTool, failTool } from './test-support/sample-tools.js';

const registry = createRecordingRegistry([echoTool, failTool]);

function context(): ToolDispatchContext {
  return {
    nodeId: 'agent',
    grantedToolIds: new Set(registry.list()),
    config: {},
    toolPolicy: {},
    fsScope: 'sandboxed',
    gateApproved: false,
  };
}

describe('runToolCalls: the tool_result projection of a fed-back failure', () => {
  it('projects each fed-back failure as success: false with its message, in call order', async () => {
    const calls = [
      { id: 'c1', name: 'echo', args: { text: 'ok' } },
      { id: 'c2', name: 'echo', args: { txt: 'x' } },
      { id: 'c3', name: 'fail', args: { reason: 'correctable' } },
    ];

    const round = await runToolCalls(calls, {
      registry,
      ctx: context(),
      budget: createCorrectionBudget(3),
    });

    expect(round.failedResults).toEqual([
      {
        toolId: 'echo',
        success: false,
        outputSummary: 'tool echo args invalid: text (invalid_type), txt (unrecognized_key)',
      },
      { toolId: 'fail', success: false, outputSummary: 'tool fail failed: tool_error' },
    ]);
  });

  it('projects a recoverable scope denial fed back on a chat surface', async () => {
    const round = await runToolCalls(
      [{ id: 'c1', name: 'fail', args: { reason: 'recoverable' } }],
      {
        registry,
        ctx: context(),
        budget: createCorrectionBudget(),
        recoverToolFailures: true,
      },
    );

    expect(round.failedResults).toEqual([
      { toolId: 'fail', success: false, outputSummary: 'tool fail denied: scope_escape' },
    ]);
  });

  it('names no tool for an unknown one and leaves a clean round without the field', async () => {
    const failed = await runToolCalls([{ id: 'c1', name: 'ehco', args: {} }], {
      registry,
      ctx: context(),
      budget: createCorrectionBudget(),
    });
    const clean = await runToolCalls([{ id: 'c1', name: 'echo', args: { text: 'ok' } }], {
      registry,
      ctx: context(),
      budget: createCorrectionBudget(),
    });

    expect(failed.failedResults?.[0]).toMatchObject({ toolId: '(unknown tool)', success: false });
    // An event is a log sink: the fixed text, never the name the model chose.
    expect(failed.failedResults?.[0]?.outputSummary).toBe('unknown tool');
    expect(JSON.stringify(failed.failedResults)).not.toContain('ehco');
    expect(clean).not.toHaveProperty('failedResults');
  });
});
