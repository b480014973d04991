import { describe, expect, it } from 'vitest';
import { approvalActionClass } from '../loop/approval-action-class.js';
import { mcpCallTool } from './mcp-call.js';
import { CANARY, expectArgsRejected } from './test-support/expect-args.js';
import { EMPTY_HOST, onlyCall, stubHost, testContext } from './test-support/stub-host.js';

describe('mcp_call', () => {
  it('accepts a server, a tool and an arguments object', () => {
    const raw = { server: 'docs', tool: 'search', args: { q: 'x', n: 1 } };

    expect(mcpCallTool.parseArgs(raw)).toEqual(raw);
  });

  it.each([
    ['a missing server', { tool: 't' }, 'server'],
    ['a missing tool', { server: 's' }, 'tool'],
    ['an over-long tool name', { server: 's', tool: CANARY.repeat(20) }, 'tool'],
    ['array args', { server: 's', tool: 't', args: [CANARY] }, 'args'],
    ['an unknown key', { server: 's', tool: 't', url: CANARY }, 'url'],
  ])('rejects %s, naming the field', (_case, raw, field) => {
    expectArgsRejected(mcpCallTool, raw, field);
  });

  it('calls mcp.call with server, tool and args, the signal and the host options', async () => {
    const { host, calls } = stubHost();
    const signal = new AbortController().signal;
    const hostCallOptions = {};

    await mcpCallTool.dispatch(
      { server: 's', tool: 't', args: { a: 1 } },
      host,
      testContext({ signal, hostCallOptions }),
    );

    expect(onlyCall(calls, 'mcp.call')).toEqual([
      { server: 's', tool: 't', args: { a: 1 } },
      signal,
      hostCallOptions,
    ]);
  });

  it('sends an empty arguments object when the model gave none', async () => {
    const { host, calls } = stubHost();

    await mcpCallTool.dispatch({ server: 's', tool: 't' }, host, testContext());

    expect(onlyCall(calls, 'mcp.call')[0]).toEqual({ server: 's', tool: 't', args: {} });
  });

  it('returns the MCP tool result as is', async () => {
    const answer = { content: [{ type: 'text', text: 'hi' }] };
    const { host } = stubHost({ mcpCall: () => answer });

    expect(await mcpCallTool.dispatch({ server: 's', tool: 't' }, host, testContext())).toBe(
      answer,
    );
  });

  it('is mcp egress whose target names only the server and tool, governed as egress', () => {
    expect(mcpCallTool.policy).toMatchObject({
      egress: 'mcp',
      spawnsProcess: false,
      fsScoped: false,
    });
    expect(mcpCallTool.policyTarget?.({ server: 's', tool: 't', args: { k: 'v' } })).toEqual({
      server: 's',
      tool: 't',
    });
    expect(approvalActionClass(mcpCallTool)).toBe('egress');
  });

  it('fails with ToolUnavailableError naming mcp when the arm is absent', async () => {
    await expect(
      mcpCallTool.dispatch({ server: 's', tool: 't' }, EMPTY_HOST, testContext()),
    ).rejects.toMatchObject({
      capability: 'mcp',
    });
  });
});
