// The ActionGuard seam wired through `registry.dispatch`: who is asked, in which order, and what
// a guard can refuse.
import { describe, expect, it, vi } from 'vitest';
import type { ActionGuard, ActionGuardRequest } from '../dispatch-context.js';
import { ToolPolicyError } from '../errors.js';
import { createToolRegistry } from '../registry.js';
import { commandTool, httpTool, stubContext, stubTool } from './test-support/stub-tools.js';

const allow: ActionGuard['decide'] = async () => ({ outcome: 'allow' });

describe('dispatch: the action guard', () => {
  it('is consulted on the workflow path, without ctx.approval', async () => {
    const decide = vi.fn(allow);
    const { tool, calls } = httpTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });

    await registry.dispatch(
      { id: 'c', name: 'http', args: { url: 'https://api.example.com/v1?key=s3cret' } },
      stubContext(['http'], {
        toolPolicy: { allowedDomains: ['api.example.com'] },
        actionGuard: { decide },
      }),
    );

    expect(decide).toHaveBeenCalledWith(
      { toolId: 'http', nodeId: 'node-1', action: 'egress', preview: { host: 'api.example.com' } },
      undefined,
    );
    expect(JSON.stringify(decide.mock.calls)).not.toContain('s3cret');
    expect(calls).toHaveLength(1);
  });

  it('denies as governed_block before any host call', async () => {
    const { tool, calls } = commandTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const attempt = registry.dispatch(
      { id: 'c', name: 'run', args: { command: 'ls' } },
      stubContext(['run'], {
        toolPolicy: { allowedCommands: ['ls'] },
        actionGuard: { decide: async () => ({ outcome: 'deny', reason: 'change freeze' }) },
      }),
    );

    await expect(attempt).rejects.toThrow(ToolPolicyError);
    await expect(attempt).rejects.toMatchObject({ reason: 'governed_block', recoverable: false });
    expect(calls).toEqual([]);
  });

  it('denies when the guard throws (fail closed)', async () => {
    const { tool, calls } = commandTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const attempt = registry.dispatch(
      { id: 'c', name: 'run', args: { command: 'ls' } },
      stubContext(['run'], {
        toolPolicy: { allowedCommands: ['ls'] },
        actionGuard: {
          decide: () => {
            throw new Error('governor unreachable');
          },
        },
      }),
    );

    await expect(attempt).rejects.toMatchObject({ reason: 'governed_block' });
    expect(calls).toEqual([]);
  });

  it('runs after the policy checks: a refused call never reaches the guard', async () => {
    const decide = vi.fn(allow);
    const registry = createToolRegistry({ tools: [commandTool().tool], host: {} });

    const attempt = registry.dispatch(
      { id: 'c', name: 'run', args: { command: 'rm' } },
      stubContext(['run'], { actionGuard: { decide } }),
    );

    await expect(attempt).rejects.toMatchObject({ reason: 'command_not_allowed' });
    expect(decide).not.toHaveBeenCalled();
  });

  it('is not consulted for a call that is not governed', async () => {
    const decide = vi.fn(allow);
    const commit = vi.fn();
    const registry = createToolRegistry({ tools: [stubTool().tool], host: {} });

    await registry.dispatch(
      { id: 'c', name: 'stub', args: {} },
      stubContext(['stub'], { actionGuard: { decide, commit } }),
    );

    expect(decide).not.toHaveBeenCalled();
    expect(commit).not.toHaveBeenCalled();
  });

  it('decides before confirm, then admission, the host and commit, in that order', async () => {
    const order: string[] = [];
    const { tool } = commandTool({
      run: async () => {
        order.push('host');
        return 'ok';
      },
    });
    const registry = createToolRegistry({ tools: [tool], host: {} });

    await registry.dispatch(
      { id: 'c', name: 'run', args: { command: 'ls' } },
      stubContext(['run'], {
        toolPolicy: { allowedCommands: ['ls'] },
        actionGuard: {
          decide: async () => {
            order.push('decide');
            return { outcome: 'allow' };
          },
          commit: () => {
            order.push('commit');
          },
        },
        approval: {
          emitApprovalRequested: () => order.push('emit'),
          confirm: async () => {
            order.push('confirm');
            return { outcome: 'approve' };
          },
        },
        beforeDispatch: () => {
          order.push('admit');
        },
      }),
    );

    expect(order).toEqual(['decide', 'emit', 'confirm', 'admit', 'host', 'commit']);
  });

  it('never puts a call the guard refuses to a human', async () => {
    const confirm = vi.fn(async () => ({ outcome: 'approve' as const }));
    const emitApprovalRequested = vi.fn();
    const registry = createToolRegistry({ tools: [commandTool().tool], host: {} });

    const attempt = registry.dispatch(
      { id: 'c', name: 'run', args: { command: 'ls' } },
      stubContext(['run'], {
        toolPolicy: { allowedCommands: ['ls'] },
        actionGuard: { decide: async () => ({ outcome: 'deny' }) },
        approval: { confirm, emitApprovalRequested },
      }),
    );

    await expect(attempt).rejects.toMatchObject({ reason: 'governed_block' });
    expect(emitApprovalRequested).not.toHaveBeenCalled();
    expect(confirm).not.toHaveBeenCalled();
  });

  it('lets confirm still refuse what the guard allowed, with no commit', async () => {
    const commit = vi.fn();
    const { tool, calls } = commandTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const attempt = registry.dispatch(
      { id: 'c', name: 'run', args: { command: 'ls' } },
      stubContext(['run'], {
        toolPolicy: { allowedCommands: ['ls'] },
        actionGuard: { decide: allow, commit },
        approval: { confirm: async () => ({ outcome: 'reject' }) },
      }),
    );

    await expect(attempt).rejects.toMatchObject({ reason: 'user_rejected' });
    expect(calls).toEqual([]);
    expect(commit).not.toHaveBeenCalled();
  });

  it('commits the same request it decided, with the host outcome', async () => {
    const decided: ActionGuardRequest[] = [];
    const commit = vi.fn();
    const { tool } = commandTool({ run: async () => Promise.reject(new Error('exit 1')) });
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const attempt = registry.dispatch(
      { id: 'c', name: 'run', args: { command: 'ls' } },
      stubContext(['run'], {
        toolPolicy: { allowedCommands: ['ls'] },
        actionGuard: {
          decide: async (request) => {
            decided.push(request);
            return { outcome: 'allow' };
          },
          commit,
        },
      }),
    );

    await expect(attempt).rejects.toMatchObject({ reason: 'host_error' });
    expect(commit).toHaveBeenCalledTimes(1);
    expect(commit.mock.calls[0]?.[0]).toBe(decided[0]);
    expect(commit.mock.calls[0]?.[1]).toBe('failed');
  });

  it('ends the call fatally, not retryable, when commit throws after the effect', async () => {
    const { tool, calls } = commandTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const attempt = registry.dispatch(
      { id: 'c', name: 'run', args: { command: 'ls' } },
      stubContext(['run'], {
        toolPolicy: { allowedCommands: ['ls'] },
        actionGuard: { decide: allow, commit: async () => Promise.reject(new Error('audit down')) },
      }),
    );

    await expect(attempt).rejects.toMatchObject({
      reason: 'guard_commit_failed',
      retryable: false,
      recoverable: false,
    });
    expect(calls).toHaveLength(1);
  });
});
