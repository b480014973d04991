import { describe, expect, it, vi } from 'vitest';
import type { ActionGuard, ActionGuardRequest } from '../dispatch-context.js';
import { ToolCancelledError, ToolPolicyError } from '../errors.js';
import { consultActionGuard } from './consult-action-guard.js';

const request: ActionGuardRequest = Object.freeze({
  toolId: 'http',
  nodeId: 'node-1',
  action: 'egress',
  preview: { host: 'api.example.com' },
});

describe('consultActionGuard', () => {
  it('passes the request and the signal to decide and lets an allow through', async () => {
    const signal = new AbortController().signal;
    const decide = vi.fn<ActionGuard['decide']>(async () => ({ outcome: 'allow' }));

    await consultActionGuard({ decide }, request, signal);

    expect(decide).toHaveBeenCalledWith(request, signal);
  });

  it('denies as governed_block with the reason kept off the message', async () => {
    const guard: ActionGuard = { decide: async () => ({ outcome: 'deny', reason: 'org rule 7' }) };

    const attempt = consultActionGuard(guard, request, undefined);

    await expect(attempt).rejects.toThrow(ToolPolicyError);
    await expect(attempt).rejects.toMatchObject({
      reason: 'governed_block',
      guardReason: 'org rule 7',
      recoverable: false,
      message: 'tool http denied: governed_block',
    });
  });

  it.each<[string, ActionGuard['decide']]>([
    [
      'throws synchronously',
      () => {
        throw new Error('governor down');
      },
    ],
    ['rejects', async () => Promise.reject(new Error('timeout'))],
    ['returns nothing', async () => undefined as never],
    ['returns an unknown outcome', async () => ({ outcome: 'maybe' }) as never],
    [
      'returns a deny with a non-string reason',
      async () => ({ outcome: 'deny', reason: 7 }) as never,
    ],
  ])('fails closed when decide %s', async (_case, decide) => {
    const attempt = consultActionGuard({ decide }, request, undefined);

    await expect(attempt).rejects.toMatchObject({ reason: 'governed_block' });
  });

  it('cancels when aborted while deciding, even if the guard later allows', async () => {
    const controller = new AbortController();
    let allow: () => void = () => undefined;
    const decide: ActionGuard['decide'] = () =>
      new Promise((resolve) => {
        allow = () => resolve({ outcome: 'allow' });
      });

    const attempt = consultActionGuard({ decide }, request, controller.signal);
    controller.abort();
    allow();

    await expect(attempt).rejects.toThrow(ToolCancelledError);
  });

  it('cancels without asking when already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const decide = vi.fn<ActionGuard['decide']>(async () => ({ outcome: 'allow' }));

    const attempt = consultActionGuard({ decide }, request, controller.signal);

    await expect(attempt).rejects.toThrow(ToolCancelledError);
    expect(decide).not.toHaveBeenCalled();
  });
});
