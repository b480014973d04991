import { describe, expect, it } from 'vitest';
import { approvalActionClass } from '../loop/approval-action-class.js';
import { invokeAgentTool } from './invoke-agent.js';
import { CANARY, expectArgsRejected } from './test-support/expect-args.js';
import { EMPTY_HOST, testContext } from './test-support/stub-host.js';

describe('invoke_agent', () => {
  it('accepts a node id with an optional input', () => {
    expect(invokeAgentTool.parseArgs({ nodeId: 'writer', input: 'draft it' })).toEqual({
      nodeId: 'writer',
      input: 'draft it',
    });
  });

  it.each([
    ['a missing node id', {}, 'nodeId'],
    ['an over-long node id', { nodeId: CANARY.repeat(20) }, 'nodeId'],
    ['a non-string input', { nodeId: 'n', input: { a: CANARY } }, 'input'],
    ['an unknown key', { nodeId: 'n', depth: 9 }, 'depth'],
  ])('rejects %s, naming the field', (_case, raw, field) => {
    expectArgsRejected(invokeAgentTool, raw, field);
  });

  it('calls the engine delegate with the node id and input and returns its output', async () => {
    const seen: unknown[] = [];
    const invokeAgent = async (nodeId: string, input: unknown) => {
      seen.push([nodeId, input]);
      return { answer: 42 };
    };

    const result = await invokeAgentTool.dispatch(
      { nodeId: 'n', input: 'x' },
      EMPTY_HOST,
      testContext({ invokeAgent }),
    );

    expect(result).toEqual({ answer: 42 });
    expect(seen).toEqual([['n', 'x']]);
  });

  it('fails with ToolUnavailableError naming invokeAgent without a delegate', async () => {
    await expect(
      invokeAgentTool.dispatch({ nodeId: 'n' }, EMPTY_HOST, testContext()),
    ).rejects.toMatchObject({
      code: 'tool_unavailable',
      capability: 'invokeAgent',
    });
  });

  it('needs no host arm and is not governed', () => {
    expect(invokeAgentTool.policy).toEqual({
      fsScoped: false,
      spawnsProcess: false,
      requiresGateApproval: false,
    });
    expect(approvalActionClass(invokeAgentTool)).toBeUndefined();
  });
});
