// Secret argument provenance at the registry boundary: nested taint paths, entries naming no
// parameter, and mapped values without a provenance verdict. Every refusal happens before the
// host call, and no tainted value shows in an error, a preflight or a serialised event.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { ToolArgsInvalidError, ToolPolicyError } from '../errors.js';
import { createToolRegistry } from '../registry.js';
import { projectFailedResult } from './project-events.js';
import { stubContext, stubTool } from './test-support/stub-tools.js';

const SECRET = 'sk-nested-provenance-7f3a9c';

function refusalText(error: unknown): string {
  const failed = error instanceof Error ? projectFailedResult(error) : undefined;
  return JSON.stringify({ error: String(error), failed });
}

async function refusalOf(attempt: Promise<unknown>): Promise<unknown> {
  try {
    await attempt;
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
}

describe('secretArgKeys: a nested path taints its top-level key', () => {
  it('refuses a call carrying the nested value, before the host, echoing no value', async () => {
    const { tool, calls } = stubTool({ run: async () => ({ ok: true }) });
    const registry = createToolRegistry({ tools: [tool], host: {} });
    const call = { id: 'c', name: 'stub', args: { nested: { value: SECRET } } };
    const ctx = stubContext(['stub'], { secretArgKeys: new Set(['nested.value']) });

    const error = await refusalOf(registry.dispatch(call, ctx));

    expect(error).toBeInstanceOf(ToolArgsInvalidError);
    expect(error).toMatchObject({ fields: ['nested'], issues: [{ problem: 'secret_tainted' }] });
    expect(refusalText(error)).not.toContain(SECRET);
    expect(() => registry.preflight(call, ctx)).toThrow(ToolArgsInvalidError);
    expect(calls).toEqual([]);
  });

  it('hides the whole top-level value from toolInput and the serialised events', async () => {
    // A default fills the tainted key after validation: the run proceeds, the value stays hidden.
    const tool = defineTool({
      id: 'note',
      description: 'a tool whose secret arrives by default',
      args: z.strictObject({
        text: z.string(),
        content: z.object({ value: z.string() }).default({ value: SECRET }),
      }),
      policy: { fsScoped: false, spawnsProcess: false, requiresGateApproval: false },
      dispatch: () => Promise.resolve({ ok: true }),
    });
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const outcome = await registry.dispatch(
      { id: 'c', name: 'note', args: { text: 'hi' } },
      stubContext(['note'], { secretArgKeys: new Set(['content.value']) }),
    );

    expect(outcome.events.call.toolInput).toEqual({ text: 'hi' });
    expect(JSON.stringify(outcome.events)).not.toContain(SECRET);
  });
});

describe('secretArgKeys: an entry naming no parameter refuses', () => {
  it.each([['missing'], ['missing.value'], ['value']])(
    'refuses %j before the host, naming neither key nor value',
    async (entry) => {
      const { tool, calls } = stubTool();
      const registry = createToolRegistry({ tools: [tool], host: {} });
      const call = { id: 'c', name: 'stub', args: { text: SECRET } };
      const ctx = stubContext(['stub'], { secretArgKeys: new Set([entry]) });

      const error = await refusalOf(registry.dispatch(call, ctx));

      expect(error).toBeInstanceOf(ToolPolicyError);
      expect(error).toMatchObject({ code: 'tool_denied', reason: 'unknown_secret_arg_key' });
      expect(refusalText(error)).not.toContain(SECRET);
      expect(String(error)).not.toContain(entry);
      expect(() => registry.preflight(call, ctx)).toThrow(ToolPolicyError);
      expect(calls).toEqual([]);
    },
  );
});

describe('inputMapping without secretArgKeys is unverified provenance', () => {
  it('refuses mapped values when secretArgKeys is absent, before the host', async () => {
    const { tool, calls } = stubTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });
    const call = { id: 'c', name: 'stub' };
    const ctx = stubContext(['stub'], { config: { inputMapping: { text: SECRET } } });

    const error = await refusalOf(registry.dispatch(call, ctx));

    expect(error).toBeInstanceOf(ToolPolicyError);
    expect(error).toMatchObject({ code: 'tool_denied', reason: 'unverified_provenance' });
    expect(refusalText(error)).not.toContain(SECRET);
    expect(() => registry.preflight(call, ctx)).toThrow(ToolPolicyError);
    expect(calls).toEqual([]);
  });

  it('runs mapped values under an explicit empty set (verified clean)', async () => {
    const { tool, calls } = stubTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });

    await registry.dispatch(
      { id: 'c', name: 'stub' },
      stubContext(['stub'], {
        config: { inputMapping: { text: 'mapped' } },
        secretArgKeys: new Set(),
      }),
    );

    expect(calls).toEqual([{ args: { text: 'mapped' } }]);
  });

  it('still refuses a tainted mapped value under a taint set naming it', async () => {
    const { tool, calls } = stubTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const error = await refusalOf(
      registry.dispatch(
        { id: 'c', name: 'stub' },
        stubContext(['stub'], {
          config: { inputMapping: { nested: { value: SECRET } } },
          secretArgKeys: new Set(['nested.value']),
        }),
      ),
    );

    expect(error).toMatchObject({ fields: ['nested'] });
    expect(refusalText(error)).not.toContain(SECRET);
    expect(calls).toEqual([]);
  });

  it('leaves a call with no mapping as it was: absent secretArgKeys runs', async () => {
    const { tool, calls } = stubTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });

    await registry.dispatch({ id: 'c', name: 'stub', args: { text: 'hi' } }, stubContext(['stub']));

    expect(calls).toEqual([{ args: { text: 'hi' } }]);
  });
});
