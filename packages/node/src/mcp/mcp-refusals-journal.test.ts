import {
  createToolRegistry,
  type ToolCall,
  type ToolDispatchContext,
  type ToolRegistry,
} from '@toolhost/core';
import { isRefusedBeforeEffect } from '@toolhost/core/host';
import { createMemoryEffectJournal, type EffectJournal } from '@toolhost/core/journal';
import { mcpCallTool } from '@toolhost/core/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpArm, type McpArm } from './create-mcp-arm.js';
import { fixtureServerDeclaration } from './test-support/fixture-server-declaration.js';

// Issue 37: what the MCP arm refuses before sending `tools/call` discards a journaled call's
// claim; a failure the server reported (the request was sent) keeps it.
describe('a journaled mcp_call and its refusals (real stdio fixture server)', () => {
  let arm: McpArm;
  let registry: ToolRegistry;

  beforeAll(async () => {
    arm = await createMcpArm({
      servers: { fx: fixtureServerDeclaration({ tools: ['echo', 'fails'] }) },
    });
    registry = createToolRegistry({
      tools: [mcpCallTool, ...arm.tools],
      host: { mcp: arm.capability },
    });
  });
  afterAll(() => arm.close());

  const contextFor = (store: EffectJournal): ToolDispatchContext => ({
    nodeId: 'mcp-journal-test',
    grantedToolIds: new Set(['mcp_call']),
    config: {},
    // The host's own refusals are under test here: the policy lets every call through to it.
    toolPolicy: { allowedMcpTools: ['fx/*', 'zz/*'] },
    fsScope: 'sandboxed',
    gateApproved: false,
    journal: { store, runId: 'run-mcp' },
  });
  const dispatch = (store: EffectJournal, args: Record<string, unknown>) => {
    const call: ToolCall = { id: 'call-mcp-1', name: 'mcp_call', args };
    return registry.dispatch(call, contextFor(store)).catch((error: unknown) => error);
  };

  it.each([
    ['an unknown tool', { server: 'fx', tool: 'nope', args: {} }, { reason: 'unknown_tool' }],
    ['an unknown server', { server: 'zz', tool: 'echo', args: {} }, { reason: 'unknown_server' }],
    [
      'arguments the schema refuses',
      { server: 'fx', tool: 'echo', args: { text: 5 } },
      { code: 'tool_args_invalid' },
    ],
  ])('%s is refused before sending: the rerun is judged afresh', async (_case, args, refusal) => {
    const store = createMemoryEffectJournal();

    const first = await dispatch(store, args);
    const again = await dispatch(store, args);

    expect(first).toMatchObject(refusal);
    expect(isRefusedBeforeEffect(first)).toBe(true);
    expect(again).toMatchObject(refusal);
  });

  it('a failure the server reported keeps the claim: the rerun is effect_unresolved', async () => {
    const store = createMemoryEffectJournal();
    const args = { server: 'fx', tool: 'fails', args: {} };

    const first = await dispatch(store, args);
    const again = await dispatch(store, args);

    expect(first).toMatchObject({ reason: 'tool_reported_error' });
    expect(isRefusedBeforeEffect(first)).toBe(false);
    expect(again).toMatchObject({ reason: 'effect_unresolved' });
  });
});
