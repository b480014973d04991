import {
  classifyToolError,
  createToolRegistry,
  unwrapUntrusted,
  type ToolDispatchContext,
} from '@toolhost/core';
import { mcpCallTool } from '@toolhost/core/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpArm, type McpArm } from './create-mcp-arm.js';
import { fixtureServerDeclaration } from './test-support/fixture-server-declaration.js';

// The arm behind the real registry pipeline: discovered ToolDefs and the built-in mcp_call.
describe('MCP tools through createToolRegistry', () => {
  let arm: McpArm;
  let registry: ReturnType<typeof createToolRegistry>;
  const context = (signal?: AbortSignal): ToolDispatchContext => ({
    nodeId: 'test',
    grantedToolIds: new Set(['mcp_call', ...arm.tools.map((tool) => tool.id)]),
    config: {},
    toolPolicy: {},
    fsScope: 'sandboxed',
    gateApproved: false,
    ...(signal === undefined ? {} : { signal }),
  });
  beforeAll(async () => {
    arm = await createMcpArm({ servers: { fx: fixtureServerDeclaration() } });
    registry = createToolRegistry({
      tools: [mcpCallTool, ...arm.tools],
      host: { mcp: arm.capability },
    });
  });
  afterAll(() => arm.close());

  it('runs a discovered tool and brands its result untrusted', async () => {
    const outcome = await registry.dispatch(
      { id: '1', name: 'mcp_fx_echo', args: { text: 'hi' } },
      context(),
    );

    expect(unwrapUntrusted(outcome.toolResult).result).toBe('hi');
  });

  it('runs the same tool through mcp_call', async () => {
    const outcome = await registry.dispatch(
      {
        id: '2',
        name: 'mcp_call',
        args: { server: 'fx', tool: 'echo', args: { text: 'via mcp_call' } },
      },
      context(),
    );

    expect(unwrapUntrusted(outcome.toolResult).result).toBe('via mcp_call');
  });

  it('keeps mcp_call within the grant: a server tool not granted is refused before the server sees it', async () => {
    const narrow = (toolPolicy: ToolDispatchContext['toolPolicy']): ToolDispatchContext => ({
      ...context(),
      grantedToolIds: new Set(['mcp_call', 'mcp_fx_echo']),
      toolPolicy,
    });
    const call = (tool: string, ctx: ToolDispatchContext) =>
      registry.dispatch(
        { id: tool, name: 'mcp_call', args: { server: 'fx', tool, args: { text: 't' } } },
        ctx,
      );

    const echoed = await call('echo', narrow({}));
    expect(unwrapUntrusted(echoed.toolResult).result).toBe('t');
    await expect(call('fails', narrow({}))).rejects.toMatchObject({
      name: 'ToolPolicyError',
      reason: 'mcp_tool_not_allowed',
    });
    // Named by the configuration, it is reached (and reports the server's own error).
    await expect(call('fails', narrow({ allowedMcpTools: ['fx/fails'] }))).rejects.toMatchObject({
      code: 'tool_failed',
    });
    await expect(call('fails', narrow({ allowedMcpTools: ['fx/*'] }))).rejects.toMatchObject({
      code: 'tool_failed',
    });
  });

  it.each([
    ['a discovered tool', { name: 'mcp_fx_fails', args: {} }],
    ['mcp_call', { name: 'mcp_call', args: { server: 'fx', tool: 'fails' } }],
  ])('classifies an isError result from %s as correctable', async (_case, call) => {
    const error = await registry
      .dispatch({ id: '3', ...call }, context())
      .catch((caught: unknown) => caught);

    expect(classifyToolError(error)).toBe('correctable');
  });

  it.each([
    ['a discovered tool', { name: 'mcp_fx_echo', args: { text: 'an-argument-value' } }],
    [
      'mcp_call',
      {
        name: 'mcp_call',
        args: { server: 'fx', tool: 'echo', args: { text: 'an-argument-value' } },
      },
    ],
  ])(
    'asks approval for %s naming its server and tool, never its arguments',
    async (_case, call) => {
      const asked: unknown[] = [];
      await registry.dispatch(
        { id: '5', ...call },
        {
          ...context(),
          approval: {
            emitApprovalRequested: (event) => asked.push(event),
            confirm: async (request) => {
              asked.push(request.preview, request.unredactedPreview);
              return { outcome: 'approve' };
            },
          },
        },
      );

      expect(asked[1]).toEqual({ server: 'fx', tool: 'echo' });
      expect(asked[2]).toEqual({ server: 'fx', tool: 'echo' });
      expect(JSON.stringify(asked)).not.toContain('an-argument-value');
    },
  );

  it('routes an abort to the cancel path', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);

    const attempt = registry.dispatch(
      { id: '4', name: 'mcp_fx_slow', args: { ms: 20_000 } },
      context(controller.signal),
    );

    await expect(attempt).rejects.toMatchObject({ code: 'cancelled' });
  });
});
