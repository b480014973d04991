import {
  createToolRegistry,
  defineTool,
  ToolExecutionError,
  type ToolDispatchContext,
} from '@toolhost/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AuditEventType, AuditLog } from './audit-log.js';
import { withAudit } from './with-audit.js';

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
});
