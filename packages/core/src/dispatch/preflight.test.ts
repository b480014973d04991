import { describe, expect, it, vi } from 'vitest';
import { ToolArgsInvalidError, ToolPolicyError, UnknownToolError } from '../errors.js';
import { createToolRegistry } from '../registry.js';
import { commandTool, httpTool, stubContext, stubTool } from './test-support/stub-tools.js';

describe('registry.preflight', () => {
  it('returns the governed class and the scrubbed preview confirm would get', async () => {
    const token = 'ghp_' + 'A'.repeat(36);
    const asked: unknown[] = [];
    const { tool, calls } = commandTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });
    const call = { id: 'c', name: 'run', args: { command: 'deploy', args: [`--token=${token}`] } };
    const ctx = stubContext(['run'], {
      toolPolicy: { allowedCommands: [`deploy --token=${token}`] },
      approval: {
        confirm: async (request) => {
          asked.push(request.preview);
          return { outcome: 'approve' };
        },
      },
    });

    const checked = registry.preflight(call, ctx);
    await registry.dispatch(call, ctx);

    expect(checked).toEqual({
      action: 'process',
      preview: { command: 'deploy --token=[redacted]' },
    });
    expect(asked).toEqual([checked.preview]);
    expect(JSON.stringify(checked)).not.toContain(token);
    expect(calls).toHaveLength(1);
  });

  it('previews an egress call by its host only', () => {
    const registry = createToolRegistry({ tools: [httpTool().tool], host: {} });

    const checked = registry.preflight(
      { id: 'c', name: 'http', args: { url: 'https://API.example.com/v1?key=s3cret' } },
      stubContext(['http'], { toolPolicy: { allowedDomains: ['api.example.com'] } }),
    );

    expect(checked).toEqual({ action: 'egress', preview: { host: 'api.example.com' } });
  });

  it('returns no action for a call that is not governed', () => {
    const registry = createToolRegistry({ tools: [stubTool().tool], host: {} });

    const checked = registry.preflight({ id: 'c', name: 'stub', args: {} }, stubContext(['stub']));

    expect(checked).toEqual({});
  });

  it.each([
    [
      'a provider-executed call',
      { id: 'c', name: 'run', args: {}, providerExecuted: true },
      ToolPolicyError,
      'provider_executed',
    ],
    ['an unknown name', { id: 'c', name: 'nope', args: {} }, UnknownToolError, undefined],
    ['an ungranted tool', { id: 'c', name: 'http', args: {} }, ToolPolicyError, 'not_granted'],
    [
      'invalid args',
      { id: 'c', name: 'run', args: { count: 'x' } },
      ToolArgsInvalidError,
      undefined,
    ],
    [
      'a secret-tainted arg',
      { id: 'c', name: 'run', args: { command: 'ls', token: 't' } },
      ToolArgsInvalidError,
      undefined,
    ],
    [
      'a command off the allowlist',
      { id: 'c', name: 'run', args: { command: 'rm' } },
      ToolPolicyError,
      'command_not_allowed',
    ],
  ])('throws what dispatch would for %s, touching nothing', async (_case, call, type, reason) => {
    const confirm = vi.fn(async () => ({ outcome: 'approve' as const }));
    const decide = vi.fn(async () => ({ outcome: 'allow' as const }));
    const beforeDispatch = vi.fn();
    const run = commandTool();
    const registry = createToolRegistry({ tools: [run.tool, httpTool().tool], host: {} });
    const ctx = stubContext(['run'], {
      toolPolicy: { allowedCommands: ['ls'] },
      secretArgKeys: new Set(['token']),
      approval: { confirm },
      actionGuard: { decide },
      beforeDispatch,
    });

    const preflightError = captureThrow(() => registry.preflight(call, ctx));
    const dispatchError = await registry.dispatch(call, ctx).catch((error: unknown) => error);

    expect(preflightError).toBeInstanceOf(type);
    expect(preflightError).toEqual(dispatchError);
    if (reason !== undefined) expect(preflightError).toMatchObject({ reason });
    expect([confirm, decide, beforeDispatch].map((hook) => hook.mock.calls.length)).toEqual([
      0, 0, 0,
    ]);
    expect(run.calls).toEqual([]);
  });

  it('never calls the host, the guard, approval or beforeDispatch for an allowed call', () => {
    const confirm = vi.fn(async () => ({ outcome: 'approve' as const }));
    const decide = vi.fn(async () => ({ outcome: 'allow' as const }));
    const emitApprovalRequested = vi.fn();
    const beforeDispatch = vi.fn();
    const { tool, calls } = commandTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });

    registry.preflight(
      { id: 'c', name: 'run', args: { command: 'ls' } },
      stubContext(['run'], {
        toolPolicy: { allowedCommands: ['ls'] },
        approval: { confirm, emitApprovalRequested },
        actionGuard: { decide },
        beforeDispatch,
      }),
    );

    expect(calls).toEqual([]);
    for (const hook of [confirm, decide, emitApprovalRequested, beforeDispatch]) {
      expect(hook).not.toHaveBeenCalled();
    }
  });

  it("asks the host's own judgement of a governed target, after the engine's checks and before anyone", async () => {
    const judged: unknown[] = [];
    const confirm = vi.fn(async () => ({ outcome: 'approve' as const }));
    const decide = vi.fn(async () => ({ outcome: 'allow' as const }));
    const run = commandTool();
    const host = {
      preflight: (request: unknown) => {
        judged.push(request);
        if ((request as { target: { command?: string } }).target.command === 'rm -rf hooks') {
          throw new ToolPolicyError('run', 'protected_path');
        }
      },
    };
    const registry = createToolRegistry({ tools: [run.tool, stubTool().tool], host });
    const ctx = stubContext(['run', 'stub'], {
      toolPolicy: { allowedCommands: ['ls', 'rm -rf hooks'] },
      approval: { confirm },
      actionGuard: { decide },
    });
    const refused = { id: 'c', name: 'run', args: { command: 'rm', args: ['-rf', 'hooks'] } };

    expect(() => registry.preflight(refused, ctx)).toThrow(ToolPolicyError);
    await expect(registry.dispatch(refused, ctx)).rejects.toMatchObject({
      reason: 'protected_path',
    });
    // An engine refusal comes first: the host is never asked about a call the policy refused.
    expect(() =>
      registry.preflight({ id: 'c', name: 'run', args: { command: 'curl' } }, ctx),
    ).toThrow(expect.objectContaining({ reason: 'command_not_allowed' }));
    // An ungoverned call is not the host's to judge here.
    registry.preflight({ id: 'c', name: 'stub', args: {} }, ctx);
    registry.preflight({ id: 'c', name: 'run', args: { command: 'ls' } }, ctx);

    expect(judged).toEqual([
      {
        toolId: 'run',
        action: 'process',
        target: expect.objectContaining({ command: 'rm -rf hooks' }),
      },
      {
        toolId: 'run',
        action: 'process',
        target: expect.objectContaining({ command: 'rm -rf hooks' }),
      },
      { toolId: 'run', action: 'process', target: expect.objectContaining({ command: 'ls' }) },
    ]);
    expect(confirm).not.toHaveBeenCalled();
    expect(decide).not.toHaveBeenCalled();
    expect(run.calls).toEqual([]);
  });
});

function captureThrow(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  return undefined;
}
