import { describe, expect, it, vi } from 'vitest';
import type { AbortSignalLike } from '../abort-signal-like.js';
import type {
  ToolApprovalDecision,
  ToolApprovalRequest,
  ToolApprovalRequestedEvent,
} from '../dispatch-context.js';
import { ToolCancelledError, ToolDeniedByUserError, ToolPolicyError } from '../errors.js';
import { previewAction } from './action-preview.js';
import { requestApproval } from './request-approval.js';

const approve = async (
  _request: ToolApprovalRequest,
  _signal?: AbortSignalLike,
): Promise<{ outcome: 'approve' }> => ({ outcome: 'approve' });

const NO_SELECTION = previewAction('os', undefined);

describe('requestApproval', () => {
  it('emits the request, then asks the hook with a scrubbed preview and the raw selection', async () => {
    const order: string[] = [];
    const emitted: ToolApprovalRequestedEvent[] = [];
    const asked: ToolApprovalRequest[] = [];
    const command = 'deploy --token=ghp_' + 'A'.repeat(36);

    await requestApproval({
      toolId: 'run',
      action: 'process',
      previews: previewAction('process', { command }),
      approval: {
        emitApprovalRequested: (event) => {
          order.push('emit');
          emitted.push(event);
        },
        confirm: async (request) => {
          order.push('confirm');
          asked.push(request);
          return { outcome: 'approve' };
        },
      },
    });

    expect(order).toEqual(['emit', 'confirm']);
    expect(emitted[0]).toEqual({
      toolId: 'run',
      action: 'process',
      preview: { command: 'deploy --token=[redacted]' },
    });
    expect(emitted[0]).not.toHaveProperty('unredactedPreview');
    expect(asked[0]?.preview).toEqual({ command: 'deploy --token=[redacted]' });
    expect(asked[0]?.unredactedPreview).toEqual({ command });
  });

  it.each([
    ['fs_write', { path: './notes/a.txt', url: 'https://x.example/' }, { path: './notes/a.txt' }],
    ['egress', { url: 'https://API.Example.com./v1?key=secret#frag' }, { host: 'api.example.com' }],
    ['egress', {}, {}],
    ['os', { path: '/ignored' }, {}],
  ] as const)(
    'previews a %s action with only its own field (%j)',
    async (action, target, preview) => {
      const confirm = vi.fn(approve);

      await requestApproval({
        toolId: 't',
        action,
        previews: previewAction(action, target),
        approval: { confirm },
      });

      expect(confirm.mock.calls[0]?.[0]).toMatchObject({
        action,
        preview,
        unredactedPreview: preview,
      });
    },
  );

  it('fails closed without a confirm hook', async () => {
    const attempt = requestApproval({
      toolId: 't',
      action: 'os',
      previews: NO_SELECTION,
      approval: {},
    });

    await expect(attempt).rejects.toMatchObject({ reason: 'no_approval_hook' });
  });

  it.each([
    [
      'unasked',
      ToolDeniedByUserError,
      { code: 'tool_denied', reason: 'no_approval_hook', userReason: 'no human' },
    ],
    [
      'timeout',
      ToolDeniedByUserError,
      { reason: 'approval_timeout', nobodyDecided: true, userReason: 'no human' },
    ],
    [
      'withdrawn',
      ToolDeniedByUserError,
      { reason: 'approval_withdrawn', nobodyDecided: true, userReason: 'no human' },
    ],
    ['scope_escape', ToolPolicyError, { code: 'tool_denied', reason: 'scope_escape' }],
    // A label this version does not know still refuses, but never as a person's refusal: the
    // hook said no person made it, and what it meant cannot be read.
    ['someday', ToolDeniedByUserError, { reason: 'approval_error', nobodyDecided: false }],
    ['constructor', ToolDeniedByUserError, { reason: 'approval_error' }],
  ] as const)(
    'labels a refusal the hook says no person made (%s)',
    async (refusal, type, fields) => {
      const attempt = requestApproval({
        toolId: 't',
        action: 'fs_write',
        previews: NO_SELECTION,
        approval: {
          confirm: async () =>
            ({ outcome: 'reject', reason: 'no human', refusal }) as ToolApprovalDecision,
        },
      });

      await expect(attempt).rejects.toBeInstanceOf(type);
      await expect(attempt).rejects.toMatchObject(fields);
    },
  );

  it('denies as user_rejected and carries the approver reason', async () => {
    const attempt = requestApproval({
      toolId: 't',
      action: 'os',
      previews: NO_SELECTION,
      approval: { confirm: async () => ({ outcome: 'reject', reason: 'ask mode' }) },
    });

    await expect(attempt).rejects.toBeInstanceOf(ToolDeniedByUserError);
    await expect(attempt).rejects.toMatchObject({
      reason: 'user_rejected',
      userReason: 'ask mode',
    });
  });

  it.each([
    ['a hook that throws', () => Promise.reject(new Error('tty gone'))],
    [
      'a hook that throws synchronously',
      () => {
        throw new Error('boom');
      },
    ],
    ['an unreadable decision', () => Promise.resolve({ outcome: 'maybe' })],
    ['no decision', () => Promise.resolve(undefined)],
  ])('fails closed on %s as approval_error', async (_case, confirm) => {
    const attempt = requestApproval({
      toolId: 't',
      action: 'os',
      previews: NO_SELECTION,
      approval: { confirm: confirm as never },
    });

    await expect(attempt).rejects.toMatchObject({ code: 'tool_denied', reason: 'approval_error' });
  });

  it('fails closed when the emitter throws', async () => {
    const confirm = vi.fn(approve);

    const attempt = requestApproval({
      toolId: 't',
      action: 'os',
      previews: NO_SELECTION,
      approval: {
        confirm,
        emitApprovalRequested: () => {
          throw new Error('bus down');
        },
      },
    });

    await expect(attempt).rejects.toMatchObject({ reason: 'approval_error' });
    expect(confirm).not.toHaveBeenCalled();
  });

  it('cancels at once when the signal fires while the hook is still prompting', async () => {
    const controller = new AbortController();
    const attempt = requestApproval({
      toolId: 't',
      action: 'os',
      previews: NO_SELECTION,
      signal: controller.signal,
      approval: { confirm: () => new Promise(() => undefined) },
    });

    controller.abort();

    await expect(attempt).rejects.toBeInstanceOf(ToolCancelledError);
  });

  it('cancels, not approval_error, when a hook throws because of the abort', async () => {
    const controller = new AbortController();

    const attempt = requestApproval({
      toolId: 't',
      action: 'os',
      previews: NO_SELECTION,
      signal: controller.signal,
      approval: {
        confirm: async () => {
          controller.abort();
          throw new Error('aborted prompt');
        },
      },
    });

    await expect(attempt).rejects.toBeInstanceOf(ToolCancelledError);
  });

  it('cancels a late approve that arrives after the abort', async () => {
    const controller = new AbortController();

    const attempt = requestApproval({
      toolId: 't',
      action: 'os',
      previews: NO_SELECTION,
      signal: controller.signal,
      approval: {
        confirm: async () => {
          controller.abort();
          return { outcome: 'approve' };
        },
      },
    });

    await expect(attempt).rejects.toBeInstanceOf(ToolCancelledError);
  });

  it('passes the signal to the hook', async () => {
    const controller = new AbortController();
    const confirm = vi.fn(approve);

    await requestApproval({
      toolId: 't',
      action: 'os',
      previews: NO_SELECTION,
      signal: controller.signal,
      approval: { confirm },
    });

    expect(confirm.mock.calls[0]?.[1]).toBe(controller.signal);
  });
});
