import {
  createToolRegistry,
  defineTool,
  ToolExecutionError,
  type ConfirmActionHook,
  type ToolDispatchContext,
} from '@toolhost/core';
import { MAX_PREVIEW_CONTENT_BYTES } from '@toolhost/core/dispatch';
import { writeFileTool } from '@toolhost/core/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ApprovalAnswer } from '../approval/approval-prompter.js';
import { createConfirmHook } from '../approval/create-confirm-hook.js';
import type { AuditEventType, AuditLog } from './audit-log.js';
import { MAX_AUDIT_REASON_CHARS, withAudit } from './with-audit.js';

const echo = defineTool({
  id: 'echo',
  description: 'echo',
  args: z.strictObject({ text: z.string(), pinned: z.string().optional() }),
  configOnlyParams: ['pinned'],
  policy: { fsScoped: false, spawnsProcess: false, requiresGateApproval: false },
  dispatch: async (args) => {
    if (args.text === 'fail') throw new ToolExecutionError('echo', 'boom');
    return args.text;
  },
});

function recorder(): AuditLog & { lines: { event: AuditEventType; payload: unknown }[] } {
  const lines: { event: AuditEventType; payload: unknown }[] = [];
  return {
    lines,
    write: (event, payload) => lines.push({ event, payload }),
    close: () => undefined,
  };
}

const ctx: ToolDispatchContext = {
  nodeId: 't',
  grantedToolIds: new Set(['echo']),
  config: {},
  toolPolicy: {},
  fsScope: 'sandboxed',
  gateApproved: false,
};

describe('withAudit', () => {
  it('writes tool_call then tool_result, without config-only keys', async () => {
    const audit = recorder();
    const registry = withAudit(createToolRegistry({ tools: [echo], host: {} }), audit);

    await registry.dispatch({ id: '1', name: 'echo', args: { text: 'hi', pinned: 'x' } }, ctx);

    expect(audit.lines).toEqual([
      { event: 'tool_call', payload: { toolId: 'echo', toolInput: { text: 'hi' } } },
      { event: 'tool_result', payload: expect.objectContaining({ toolId: 'echo', success: true }) },
    ]);
  });

  it('keeps a long argument only as its redacted, bounded start', async () => {
    const audit = recorder();
    const registry = withAudit(createToolRegistry({ tools: [echo], host: {} }), audit);
    const secret = 'ghp_' + 'A'.repeat(36);
    const text = `key=${secret}\n${'x'.repeat(1024 * 1024)}`;

    await registry.dispatch({ id: '1', name: 'echo', args: { text } }, ctx);

    const logged = (audit.lines[0]?.payload as { toolInput: { text: string } }).toolInput.text;
    expect(logged.startsWith('key=[redacted]\n')).toBe(true);
    expect(logged.endsWith(`…[cut: ${text.length} bytes]`)).toBe(true);
    expect(Buffer.byteLength(logged)).toBeLessThan(MAX_PREVIEW_CONTENT_BYTES + 64);
    expect(JSON.stringify(audit.lines)).not.toContain(secret);
  });

  it('never logs the value of a secret-tainted key, which the pipeline then refuses', async () => {
    const audit = recorder();
    const registry = withAudit(createToolRegistry({ tools: [echo], host: {} }), audit);
    const tainted = { ...ctx, secretArgKeys: new Set(['text']) };

    const attempt = registry.dispatch(
      { id: '1', name: 'echo', args: { text: 'hunter2' } },
      tainted,
    );

    await expect(attempt).rejects.toMatchObject({ code: 'tool_args_invalid' });
    expect(JSON.stringify(audit.lines)).not.toContain('hunter2');
  });

  it('hides the whole top-level value a nested taint path names, before the refusal', async () => {
    const audit = recorder();
    const registry = withAudit(createToolRegistry({ tools: [echo], host: {} }), audit);
    const tainted = { ...ctx, secretArgKeys: new Set(['text.value']) };

    const attempt = registry.dispatch(
      { id: '1', name: 'echo', args: { text: 'hunter2' } },
      tainted,
    );

    await expect(attempt).rejects.toMatchObject({ code: 'tool_args_invalid', fields: ['text'] });
    expect(audit.lines[0]).toEqual({
      event: 'tool_call',
      payload: { toolId: 'echo', toolInput: {} },
    });
    expect(JSON.stringify(audit.lines)).not.toContain('hunter2');
  });

  it('records a failure by code and reason and rethrows it', async () => {
    const audit = recorder();
    const registry = withAudit(createToolRegistry({ tools: [echo], host: {} }), audit);

    const attempt = registry.dispatch({ id: '1', name: 'echo', args: { text: 'fail' } }, ctx);

    await expect(attempt).rejects.toBeInstanceOf(ToolExecutionError);
    expect(audit.lines[1]).toEqual({
      event: 'tool_result',
      payload: { toolId: 'echo', success: false, errorCode: 'tool_failed', reason: 'boom' },
    });
  });

  it('never echoes an unprintable requested name', async () => {
    const audit = recorder();
    const registry = withAudit(createToolRegistry({ tools: [echo], host: {} }), audit);

    await registry.dispatch({ id: '1', name: 'x y\nz', args: {} }, ctx).catch(() => undefined);

    expect(JSON.stringify(audit.lines)).not.toContain('x y');
  });

  it('names an unregistered tool "(unknown tool)", however plain the name the model chose', async () => {
    const audit = recorder();
    const registry = withAudit(createToolRegistry({ tools: [echo], host: {} }), audit);

    await registry.dispatch({ id: '1', name: 'made_up', args: {} }, ctx).catch(() => undefined);

    expect(JSON.stringify(audit.lines)).not.toContain('made_up');
    expect(audit.lines[0]).toMatchObject({ payload: { toolId: '(unknown tool)' } });
  });
});

describe('withAudit and approvals', () => {
  const TOKEN = ['ghp', 'abcdefghijklmnopqrstuvwxyz0123456789'].join('_');
  const paths = { root: '/nowhere', stateDir: '/nowhere/.state', files: [] };
  const terminal = (answer: ApprovalAnswer) =>
    createConfirmHook({ mode: 'accept-edits', paths, prompter: { ask: async () => answer } });

  async function decidedLines(confirm: ConfirmActionHook, signal?: AbortSignal) {
    const audit = recorder();
    const registry = withAudit(createToolRegistry({ tools: [writeFileTool], host: {} }), audit);
    const governed: ToolDispatchContext = {
      ...ctx,
      grantedToolIds: new Set(['write_file']),
      approval: { confirm },
      ...(signal === undefined ? {} : { signal }),
    };

    await registry
      .dispatch({ id: '1', name: 'write_file', args: { path: 'a.txt', content: 'x' } }, governed)
      .catch(() => undefined);
    return audit.lines.filter((line) => line.event === 'approval_decided').map((l) => l.payload);
  }

  it('writes a terminal approval as approved by the terminal', async () => {
    const lines = await decidedLines(terminal({ choice: 'once' }));

    expect(lines).toEqual([{ toolId: 'write_file', outcome: 'approved', by: 'terminal' }]);
  });

  it("writes a person's denial with its reason redacted, even without the log's scrub", async () => {
    const lines = await decidedLines(terminal({ choice: 'no', reason: `not ${TOKEN} here` }));

    expect(lines).toEqual([
      { toolId: 'write_file', outcome: 'denied', by: 'terminal', reason: expect.any(String) },
    ]);
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
  });

  it('bounds a long reason', async () => {
    const lines = await decidedLines(terminal({ choice: 'no', reason: 'n'.repeat(5000) }));

    expect((lines[0] as { reason: string }).reason).toHaveLength(MAX_AUDIT_REASON_CHARS);
  });

  it("writes a mode's refusal as the policy's", async () => {
    const lines = await decidedLines(createConfirmHook({ mode: 'plan', paths }));

    expect(lines).toEqual([
      { toolId: 'write_file', outcome: 'denied', by: 'policy', reason: expect.any(String) },
    ]);
  });

  it('writes a wait the call gave up as denied, cancelled', async () => {
    const controller = new AbortController();
    const waiting: ConfirmActionHook = (_request, signal) =>
      new Promise((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        controller.abort();
      });

    const lines = await decidedLines(waiting, controller.signal);

    expect(lines).toEqual([{ toolId: 'write_file', outcome: 'denied', by: 'cancelled' }]);
  });
});
