import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import {
  createToolRegistry,
  defineTool,
  ToolExecutionError,
  type ToolRegistry,
} from '@toolhost/core';
import type { ToolApprovalContext } from '@toolhost/core/policy';
import { mcpCallTool } from '@toolhost/core/tools';
import { createNodeToolHost } from '@toolhost/node';
import { createSqliteEffectJournal } from '@toolhost/node/journal';
import { fixtureServerDeclaration } from '../../node/src/mcp/test-support/fixture-server-declaration.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { traceToolRegistry } from './trace-tool-registry.js';
import { toolTypeOf } from './tool-span-attributes.js';
import {
  createRealRegistry,
  grantContext,
  openProjectHost,
} from './test-support/traced-registry.js';
import { useTracedWorkspace } from './test-support/use-traced-workspace.js';

// A plugin tool whose work starts a span of its own, as an instrumented HTTP client would.
const fetchLike = defineTool({
  id: 'plugin_demo_fetch',
  description: 'starts a child span while it runs',
  args: z.strictObject({}),
  policy: { fsScoped: false, spawnsProcess: false, requiresGateApproval: false },
  async dispatch() {
    await new Promise((resolve) => setTimeout(resolve, 1));
    trace.getTracer('undici-like').startSpan('GET').end();
    return 'fetched';
  },
});

// A journaled write whose host call fails mid-effect: its claim stays unresolved.
const flakyWrite = defineTool({
  id: 'plugin_demo_flaky_write',
  description: 'fails after its effect may have begun',
  args: z.strictObject({}),
  policy: { fsScoped: false, fsWrite: true, spawnsProcess: false, requiresGateApproval: false },
  async dispatch() {
    throw new ToolExecutionError('plugin_demo_flaky_write', 'host_crashed');
  },
});

describe('traceToolRegistry', () => {
  const env = useTracedWorkspace(openProjectHost);
  let traced: ToolRegistry;

  beforeEach(() => {
    traced = traceToolRegistry(createRealRegistry(env.handle, [fetchLike, flakyWrite]), {
      tracer: env.tracing.provider.getTracer('test'),
    });
  });

  const onlySpan = (): ReadableSpan => {
    const spans = env.tracing.spans().filter((span) => span.name.startsWith('execute_tool'));
    expect(spans).toHaveLength(1);
    return spans[0]!;
  };

  it('records a successful call as an INTERNAL execute_tool span with the GenAI attributes', async () => {
    const outcome = await traced.dispatch(
      { id: 'call_1', name: 'read_file', args: { path: 'notes.txt' } },
      grantContext(['read_file']),
    );

    const span = onlySpan();
    expect(outcome.events.result.success).toBe(true);
    expect(span.name).toBe('execute_tool read_file');
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(span.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'read_file',
      'gen_ai.tool.call.id': 'call_1',
      'gen_ai.tool.type': 'function',
      'toolhost.tool.source': 'builtin',
      'toolhost.result.truncated': false,
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.events).toEqual([]);
  });

  it.each([
    ['a scope escape', { path: '../outside.txt' }, ['read_file'], 'scope_escape'],
    ['an ungranted tool', { path: 'notes.txt' }, [], 'not_granted'],
  ])(
    'records %s as error.type tool_denied with the fixed message',
    async (_case, args, grant, reason) => {
      const attempt = traced.dispatch({ id: 'c', name: 'read_file', args }, grantContext(grant));

      await expect(attempt).rejects.toMatchObject({ code: 'tool_denied', reason });
      const span = onlySpan();
      expect(span.attributes['error.type']).toBe('tool_denied');
      expect(span.attributes['toolhost.error.reason']).toBe(reason);
      expect(span.status).toEqual({
        code: SpanStatusCode.ERROR,
        message: `tool read_file denied: ${reason}`,
      });
    },
  );

  it('records invalid arguments as tool_args_invalid', async () => {
    const attempt = traced.dispatch(
      { id: 'c', name: 'read_file', args: { path: 42 } },
      grantContext(['read_file']),
    );

    await expect(attempt).rejects.toMatchObject({ code: 'tool_args_invalid' });
    const span = onlySpan();
    expect(span.attributes['error.type']).toBe('tool_args_invalid');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.status.message).toMatch(/^tool read_file args invalid: path \(/);
  });

  it('never echoes an unregistered name: the span is the bare operation', async () => {
    const attempt = traced.dispatch(
      { id: 'c', name: 'no such tool', args: {} },
      grantContext(['read_file']),
    );

    await expect(attempt).rejects.toMatchObject({ code: 'unknown_tool' });
    const span = onlySpan();
    expect(span.name).toBe('execute_tool');
    expect(span.attributes['gen_ai.tool.name']).toBeUndefined();
    expect(span.attributes['error.type']).toBe('unknown_tool');
  });

  it('says "unknown tool" in its status, never the plain name the model chose', async () => {
    const attempt = traced.dispatch(
      { id: 'c', name: 'made_up_tool', args: {} },
      grantContext(['read_file']),
    );

    await expect(attempt).rejects.toMatchObject({ code: 'unknown_tool' });
    expect(onlySpan().status.message).toBe('unknown tool');
  });

  it('records an approved write: requested, then decided approve, and the write lands', async () => {
    const emitted: string[] = [];
    const approval: ToolApprovalContext = {
      confirm: async () => ({ outcome: 'approve' }),
      emitApprovalRequested: (event) => emitted.push(event.action),
    };

    await traced.dispatch(
      { id: 'w1', name: 'write_file', args: { path: 'out.txt', content: 'written\n' } },
      grantContext(['write_file'], { approval }),
    );

    const span = onlySpan();
    expect(await readFile(path.join(env.workspace.root, 'out.txt'), 'utf8')).toBe('written\n');
    expect(emitted).toEqual(['fs_write']);
    expect(span.events.map((event) => [event.name, event.attributes])).toEqual([
      ['toolhost.approval.requested', { 'toolhost.approval.action': 'fs_write' }],
      ['toolhost.approval.decided', { 'toolhost.approval.outcome': 'approve' }],
    ]);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('records a rejected write as decided reject and error.type tool_denied', async () => {
    const approval: ToolApprovalContext = {
      confirm: async () => ({ outcome: 'reject', reason: 'not today' }),
    };

    const attempt = traced.dispatch(
      { id: 'w1', name: 'write_file', args: { path: 'out.txt', content: 'x' } },
      grantContext(['write_file'], { approval }),
    );

    await expect(attempt).rejects.toMatchObject({ code: 'tool_denied', reason: 'user_rejected' });
    const span = onlySpan();
    expect(span.events.map((event) => event.attributes)).toEqual([
      { 'toolhost.approval.action': 'fs_write' },
      { 'toolhost.approval.outcome': 'reject' },
    ]);
    expect(span.attributes['error.type']).toBe('tool_denied');
    expect(span.attributes['toolhost.error.reason']).toBe('user_rejected');
  });

  it.each([
    ['throws', () => Promise.reject(new Error('prompt crashed')), 'error'],
    ['answers nonsense', () => Promise.resolve({ outcome: 'maybe' }), 'invalid'],
  ])('records a confirm hook that %s, and core still denies', async (_case, confirm, outcome) => {
    const approval = { confirm } as unknown as ToolApprovalContext;

    const attempt = traced.dispatch(
      { id: 'w1', name: 'write_file', args: { path: 'out.txt', content: 'x' } },
      grantContext(['write_file'], { approval }),
    );

    await expect(attempt).rejects.toMatchObject({ reason: 'approval_error' });
    expect(onlySpan().events[1]?.attributes).toEqual({ 'toolhost.approval.outcome': outcome });
  });

  it('leaves a missing confirm hook missing: no_approval_hook, no decided event', async () => {
    const attempt = traced.dispatch(
      { id: 'w1', name: 'write_file', args: { path: 'out.txt', content: 'x' } },
      grantContext(['write_file'], { approval: {} }),
    );

    await expect(attempt).rejects.toMatchObject({ reason: 'no_approval_hook' });
    expect(onlySpan().events.map((event) => event.name)).toEqual(['toolhost.approval.requested']);
  });

  it('records a SQLite-journaled write as settled, then its re-run as replayed', async () => {
    const store = await createSqliteEffectJournal({
      file: path.join(env.workspace.stateDir, 'journal.sqlite'),
    });
    try {
      const call = { id: 'j1', name: 'write_file', args: { path: 'j.txt', content: 'once\n' } };
      const ctx = grantContext(['write_file'], { journal: { store, runId: 'run-1' } });

      await traced.dispatch(call, ctx);
      const replayed = await traced.dispatch(call, ctx);

      const [first, second] = env.tracing.spans();
      expect(replayed.journal?.status).toBe('replayed');
      expect(first?.attributes['toolhost.journal.status']).toBe('settled');
      expect(first?.events.map((event) => event.name)).toEqual(['toolhost.journal.settled']);
      expect(second?.attributes['toolhost.journal.status']).toBe('replayed');
      expect(second?.events.map((event) => [event.name, event.attributes])).toEqual([
        [
          'toolhost.journal.replayed',
          {
            'toolhost.journal.output_dropped': false,
            'toolhost.journal.operator_resolved': false,
          },
        ],
      ]);
    } finally {
      await store.close();
    }
  });

  it('records a journaled call left unresolved, and its re-run refused as effect_unresolved', async () => {
    const store = await createSqliteEffectJournal({
      file: path.join(env.workspace.stateDir, 'journal.sqlite'),
    });
    try {
      const call = { id: 'j2', name: 'plugin_demo_flaky_write', args: {} };
      const ctx = grantContext([flakyWrite.id], { journal: { store, runId: 'run-2' } });

      await expect(traced.dispatch(call, ctx)).rejects.toMatchObject({ code: 'tool_failed' });
      await expect(traced.dispatch(call, ctx)).rejects.toMatchObject({
        reason: 'effect_unresolved',
      });

      const [, rerun] = env.tracing.spans();
      expect(rerun?.attributes['error.type']).toBe('tool_failed');
      expect(rerun?.attributes['toolhost.error.reason']).toBe('effect_unresolved');
      expect(rerun?.events.map((event) => [event.name, event.attributes])).toEqual([
        ['toolhost.journal.unresolved', { 'toolhost.journal.reason': 'effect_unresolved' }],
      ]);
    } finally {
      await store.close();
    }
  });

  it("keeps the span active during the host call: the tool's own spans nest under it", async () => {
    trace.setGlobalTracerProvider(env.tracing.provider);
    try {
      await traced.dispatch(
        { id: 'f1', name: fetchLike.id, args: {} },
        grantContext([fetchLike.id]),
      );
    } finally {
      trace.disable();
    }

    const tool = onlySpan();
    const child = env.tracing.spans().find((span) => span.name === 'GET');
    expect(child?.parentSpanContext?.spanId).toBe(tool.spanContext().spanId);
    expect(child?.spanContext().traceId).toBe(tool.spanContext().traceId);
  });

  it('passes preflight, get and list straight through, untraced', () => {
    const preflight = traced.preflight(
      { id: 'p', name: 'write_file', args: { path: 'a.txt', content: '' } },
      grantContext(['write_file']),
    );

    expect(preflight.action).toBe('fs_write');
    expect(traced.get('read_file')?.id).toBe('read_file');
    expect(traced.list()).toContain('read_file');
    expect(env.tracing.spans()).toEqual([]);
  });

  it('refuses a non-boolean opt-in at creation', () => {
    const build = () => traceToolRegistry(traced, { recordArguments: 'yes' as unknown as boolean });

    expect(build).toThrow(TypeError);
  });
});

describe('toolTypeOf', () => {
  it.each([['builtin' as const], ['plugin' as const]])(
    'reports a %s tool as function',
    (source) => {
      const def = { ...fetchLike, source };

      expect(toolTypeOf(def)).toBe('function');
    },
  );

  it('reports the mcp_call built-in and a discovered MCP tool as extension', () => {
    const discovered = { ...fetchLike, id: 'mcp_fx_echo', source: 'mcp' } as const;

    expect(toolTypeOf(mcpCallTool)).toBe('extension');
    expect(toolTypeOf(discovered)).toBe('extension');
  });
});

describe('traceToolRegistry over a real MCP server', () => {
  const env = useTracedWorkspace(({ root, stateDir }) =>
    createNodeToolHost({
      root,
      stateDir,
      mcp: { servers: { fx: fixtureServerDeclaration({ tools: ['echo'] }) } },
    }),
  );

  it('reports a discovered MCP tool as an extension tool call', async () => {
    const registry = createToolRegistry({ tools: env.handle.mcpTools, host: env.handle.host });
    const traced = traceToolRegistry(registry, { tracer: env.tracing.provider.getTracer('test') });

    const outcome = await traced.dispatch(
      { id: 'm1', name: 'mcp_fx_echo', args: { text: 'via mcp' } },
      grantContext(['mcp_fx_echo']),
    );

    expect(outcome.output).toBe('via mcp');
    expect(env.tracing.spans()[0]?.name).toBe('execute_tool mcp_fx_echo');
    expect(env.tracing.spans()[0]?.attributes).toMatchObject({
      'gen_ai.tool.name': 'mcp_fx_echo',
      'gen_ai.tool.type': 'extension',
      'mcp.method.name': 'tools/call',
      'toolhost.tool.source': 'mcp',
    });
  });
});
