import { describe, expect, it, vi } from 'vitest';
import type { ActionGuard, ActionGuardRequest } from '../dispatch-context.js';
import { ToolCancelledError, ToolExecutionError, ToolPolicyError } from '../errors.js';
import { commitAction } from './commit-action.js';
import type { GuardedCall } from './gate-governed.js';

const request: ActionGuardRequest = Object.freeze({
  toolId: 'write',
  nodeId: 'node-1',
  action: 'fs_write',
  preview: { path: 'a.txt' },
});

function guarded(commit: ActionGuard['commit']): GuardedCall {
  const guard: ActionGuard = { decide: async () => ({ outcome: 'allow' }) };
  return { guard: commit === undefined ? guard : { ...guard, commit }, request };
}

describe('commitAction', () => {
  it('settles as the host call did when there is no guard or no commit', async () => {
    await expect(commitAction(undefined, Promise.resolve(1))).resolves.toBe(1);
    await expect(commitAction(guarded(undefined), Promise.resolve(2))).resolves.toBe(2);
  });

  it.each<[string, () => Promise<unknown>, string]>([
    ['succeeded', async () => 'ok', 'succeeded'],
    ['failed', async () => Promise.reject(new ToolExecutionError('write', 'host_error')), 'failed'],
    [
      'failed (a typed denial)',
      async () => Promise.reject(new ToolPolicyError('write', 'protected_path')),
      'failed',
    ],
    ['cancelled', async () => Promise.reject(new ToolCancelledError('write')), 'cancelled'],
  ])('commits %s and then settles as the host call did', async (_case, host, outcome) => {
    const commit = vi.fn();
    const hostCall = host();

    const settled = await commitAction(guarded(commit), hostCall).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );

    expect(commit).toHaveBeenCalledWith(request, outcome);
    expect(settled).toEqual(
      await hostCall.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
    );
  });

  it('commits only once the host call settled', async () => {
    const order: string[] = [];
    const hostCall = new Promise<string>((resolve) =>
      setTimeout(() => {
        order.push('host');
        resolve('ok');
      }, 5),
    );

    await commitAction(
      guarded(async () => {
        order.push('commit');
      }),
      hostCall,
    );

    expect(order).toEqual(['host', 'commit']);
  });

  it.each<[string, ActionGuard['commit']]>([
    [
      'throws',
      () => {
        throw new Error('audit store down');
      },
    ],
    ['rejects', async () => Promise.reject(new Error('audit store down'))],
  ])('ends the call fatally, never retried, when commit %s', async (_case, commit) => {
    const attempt = commitAction(guarded(commit), Promise.resolve('landed'));

    await expect(attempt).rejects.toThrow(ToolExecutionError);
    await expect(attempt).rejects.toMatchObject({
      reason: 'guard_commit_failed',
      retryable: false,
      recoverable: false,
      message: 'tool write failed: guard_commit_failed',
    });
  });

  it('lets a cancel win over a commit that throws', async () => {
    const cancel = new ToolCancelledError('write');
    const commit = (): never => {
      throw new Error('audit store down');
    };

    const attempt = commitAction(guarded(commit), Promise.reject(cancel));

    await expect(attempt).rejects.toBe(cancel);
  });
});
