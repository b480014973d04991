import { describe, expect, it } from 'vitest';
import type { ToolDispatchContext } from '../dispatch-context.js';
import { classifyToolError, ToolExecutionError } from '../errors.js';
import { retainedEntries, retainedTool } from '../loop/test-support/sample-tools.js';
import { createToolRegistry } from '../registry.js';
import type { ToolHostCallOptions } from '../tool-host.js';
import { HostRetentionRefusedError, restoreRetentionRefusal } from './guard-retention.js';

const registry = createToolRegistry({ tools: [retainedTool], host: {} });
const refusal = Object.freeze({ opaque: 'runner departed: sk-live-0123456789' });

function dispatchUnder(hostCallOptions: ToolHostCallOptions, args: object = {}) {
  const ctx: ToolDispatchContext = {
    nodeId: 'agent',
    grantedToolIds: new Set(['retained']),
    config: {},
    toolPolicy: {},
    fsScope: 'sandboxed',
    gateApproved: false,
    hostCallOptions,
  };
  return registry.dispatch({ id: 'c1', name: 'retained', args }, ctx);
}

async function failureOf(attempt: Promise<unknown>): Promise<unknown> {
  return attempt.then(
    () => expect.unreachable('the dispatch resolved'),
    (error: unknown) => error,
  );
}

describe('a host retention refusal at the registry', () => {
  it('crosses as the fixed, fatal, non-retryable marker', async () => {
    const error = await failureOf(dispatchUnder({ retainWork: () => Promise.reject(refusal) }));

    expect(error).toBeInstanceOf(HostRetentionRefusedError);
    expect(error).toMatchObject({
      code: 'tool_failed',
      retryable: false,
      recoverable: false,
      toolId: 'retained',
      message: 'tool retained failed: host_retention_refused',
    });
    expect(classifyToolError(error)).toBe('fatal');
    expect(JSON.stringify(error)).not.toContain('sk-live');
    expect((error as Error).cause).toBeUndefined();
  });

  it('keeps the runner’s value by identity, apart from the marker', async () => {
    const error = await failureOf(dispatchUnder({ retainWork: () => Promise.reject(refusal) }));

    expect(restoreRetentionRefusal(error)).toBe(refusal);
  });

  it('invokes no work for a refusal before entry', async () => {
    retainedEntries.count = 0;

    await failureOf(dispatchUnder({ retainWork: () => Promise.reject(refusal) }));

    expect(retainedEntries.count).toBe(0);
  });

  it('treats a retainer that throws synchronously as a refusal too', async () => {
    const retainWork = (): never => {
      throw refusal;
    };

    const error = await failureOf(dispatchUnder({ retainWork }));

    expect(restoreRetentionRefusal(error)).toBe(refusal);
  });

  it('leaves a fault of the work itself an ordinary tool failure', async () => {
    const error = await failureOf(
      dispatchUnder({ retainWork: (factory) => factory() }, { crash: true }),
    );

    expect(error).toBeInstanceOf(ToolExecutionError);
    expect(error).toMatchObject({ reason: 'host_error', retryable: true });
    expect(restoreRetentionRefusal(error)).toBe(error);
  });
});
