import {
  createToolRegistry,
  unwrapUntrusted,
  type ToolDispatchContext,
  type ToolRegistry,
} from '@toolhost/core';
import type { ToolHostCallOptions } from '@toolhost/core/host';
import { mcpCallTool } from '@toolhost/core/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_META } from './call-mcp-tool.js';
import { createMcpArm, type McpArm } from './create-mcp-arm.js';
import { fixtureServerDeclaration } from './test-support/fixture-server-declaration.js';

const KEY = 'th1-5c1d7e9a';

// The fixture's `meta` tool answers with the request's `_meta` exactly as the server received it.
describe('the idempotency key in an MCP request _meta (real stdio fixture server)', () => {
  let arm: McpArm;
  let registry: ToolRegistry;
  const context = (hostCallOptions?: ToolHostCallOptions): ToolDispatchContext => ({
    nodeId: 'test',
    grantedToolIds: new Set(['mcp_call', 'mcp_fx_meta']),
    config: {},
    toolPolicy: {},
    fsScope: 'sandboxed',
    gateApproved: false,
    ...(hostCallOptions === undefined ? {} : { hostCallOptions }),
  });
  const metaSeen = async (
    name: string,
    args: Record<string, unknown>,
    options?: ToolHostCallOptions,
  ) => {
    const outcome = await registry.dispatch({ id: 'c', name, args }, context(options));
    return JSON.parse(String(unwrapUntrusted(outcome.toolResult).result)) as unknown;
  };

  beforeAll(async () => {
    arm = await createMcpArm({ servers: { fx: fixtureServerDeclaration({ tools: ['meta'] }) } });
    registry = createToolRegistry({
      tools: [mcpCallTool, ...arm.tools],
      host: { mcp: arm.capability },
    });
  });
  afterAll(() => arm.close());

  it('uses a key name the MCP spec allows, outside the reserved prefixes', () => {
    const [prefix = '', name = ''] = IDEMPOTENCY_KEY_META.split('/');
    const labels = prefix.split('.');
    expect(labels.every((label) => /^[A-Za-z]([A-Za-z0-9-]*[A-Za-z0-9])?$/.test(label))).toBe(true);
    expect(['modelcontextprotocol', 'mcp']).not.toContain(labels[1]);
    expect(name).toMatch(/^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/);
  });

  it('carries the key on a discovered tool and on mcp_call', async () => {
    const options = { idempotencyKey: KEY };

    await expect(metaSeen('mcp_fx_meta', {}, options)).resolves.toEqual({
      [IDEMPOTENCY_KEY_META]: KEY,
    });
    await expect(
      metaSeen('mcp_call', { server: 'fx', tool: 'meta', args: {} }, options),
    ).resolves.toEqual({ [IDEMPOTENCY_KEY_META]: KEY });
  });

  it('sends no _meta key without one', async () => {
    await expect(metaSeen('mcp_fx_meta', {})).resolves.toBeNull();
    await expect(metaSeen('mcp_fx_meta', {}, {})).resolves.toBeNull();
  });
});
