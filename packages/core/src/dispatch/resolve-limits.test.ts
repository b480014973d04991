import { describe, expect, it } from 'vitest';
import { DEFAULT_TOOL_RESULT_LIMITS } from '../bound/default-tool-result-limits.js';
import type { ToolResultLimits } from '../dispatch-context.js';
import { ToolPolicyError } from '../errors.js';
import { createToolRegistry } from '../registry.js';
import { unwrapUntrusted } from '../untrusted.js';
import { stubContext, stubTool } from './test-support/stub-tools.js';

// A write-like tool that returns a long result: the bound is where a bad ceiling used to throw.
function writer() {
  return stubTool({
    id: 'write',
    policy: { fsWrite: true, fsScoped: true },
    policyTarget: () => ({ path: 'a.txt' }),
    run: async () => ({ text: 'line\n'.repeat(5000) }),
  });
}

describe('ctx.limits at dispatch entry', () => {
  it.each([
    ['NaN bytes', { maxBytes: Number.NaN, maxLines: 10 }],
    ['negative lines', { maxBytes: 100, maxLines: -1 }],
    ['zero bytes', { maxBytes: 0 }],
    ['a fraction', { maxLines: 2.5 }],
    ['infinity', { maxBytes: Number.POSITIVE_INFINITY }],
    ['a string', { maxBytes: '100' }],
    ['null', null],
    ['a number', 5],
  ])('refuses %s as invalid_limits before the host runs', async (_name, limits) => {
    const { tool, calls } = writer();
    const registry = createToolRegistry({ tools: [tool], host: {} });
    const ctx = stubContext(['write'], { limits: limits as Partial<ToolResultLimits> });
    const call = { id: 'c', name: 'write', args: {} };

    const attempt = registry.dispatch(call, ctx);

    await expect(attempt).rejects.toBeInstanceOf(ToolPolicyError);
    await expect(attempt).rejects.toMatchObject({ reason: 'invalid_limits' });
    expect(() => registry.preflight(call, ctx)).toThrow(ToolPolicyError);
    expect(calls).toEqual([]);
  });

  it('merges a partial object over the defaults', async () => {
    const { tool, calls } = writer();
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const outcome = await registry.dispatch(
      { id: 'c', name: 'write', args: {} },
      stubContext(['write'], { limits: { maxLines: 3 } }),
    );
    const bytesOnly = await registry.dispatch(
      { id: 'c2', name: 'write', args: {} },
      stubContext(['write'], { limits: { maxBytes: 64 } }),
    );

    expect(calls).toHaveLength(2);
    const shown = JSON.stringify(unwrapUntrusted(outcome.toolResult));
    expect(shown.split('line').length - 1).toBeLessThanOrEqual(3);
    expect(outcome.truncated).toBe(true);
    // Bytes cut at 64 (plus the marker), lines left at the default 2000.
    expect(JSON.stringify(unwrapUntrusted(bytesOnly.toolResult)).length).toBeLessThan(
      DEFAULT_TOOL_RESULT_LIMITS.maxBytes,
    );
    expect(bytesOnly.truncated).toBe(true);
  });
});
