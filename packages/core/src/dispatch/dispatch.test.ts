import { describe, expect, it, vi } from 'vitest';
import type { ToolDispatchContext } from '../dispatch-context.js';
import {
  ToolArgsInvalidError,
  ToolCancelledError,
  ToolDeniedByUserError,
  ToolExecutionError,
  ToolPolicyError,
  ToolUnavailableError,
  UnknownToolError,
} from '../errors.js';
import { createToolRegistry } from '../registry.js';
import type { PolicyTarget } from '../tool-def.js';
import type { DurableMediaPart, ToolHost } from '../tool-host.js';
import { isUntrusted, unwrapUntrusted } from '../untrusted.js';
import { withMedia } from '../with-media.js';
import { requireArm } from './require-arm.js';
import { commandTool, httpTool, stubContext, stubTool } from './test-support/stub-tools.js';

describe('dispatch: the outcome', () => {
  it('returns a branded tool result, the full output and lazily projected events', async () => {
    const { tool, calls } = stubTool({ run: async () => ({ answer: 42 }) });
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const outcome = await registry.dispatch(
      { id: 'call-1', name: 'stub', args: { text: 'hello' }, type: 'tool_call' },
      stubContext(['stub']),
    );

    expect(calls).toEqual([{ args: { text: 'hello' } }]);
    expect(isUntrusted(outcome.toolResult)).toBe(true);
    expect(unwrapUntrusted(outcome.toolResult)).toEqual({
      type: 'tool_result',
      toolCallId: 'call-1',
      toolName: 'stub',
      result: { answer: 42 },
    });
    expect(outcome.output).toEqual({ answer: 42 });
    expect(outcome.truncated).toBe(false);
    expect(outcome.spill).toBeUndefined();
    expect(outcome.mediaAttachments).toBeUndefined();
    expect(JSON.parse(JSON.stringify(outcome.events))).toEqual({
      call: { toolId: 'stub', toolInput: { text: 'hello' } },
      result: { toolId: 'stub', success: true, outputSummary: '{"answer":42}' },
    });
  });

  it('computes the event projections only when read, once', async () => {
    const { tool } = stubTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const outcome = await registry.dispatch(
      { id: 'c', name: 'stub', args: {} },
      stubContext(['stub']),
    );

    const accessors = Object.getOwnPropertyDescriptors(
      Object.getPrototypeOf(outcome.events) as object,
    );
    expect(accessors['call']?.get).toBeTypeOf('function');
    expect(accessors['result']?.get).toBeTypeOf('function');
    expect(outcome.events.call).toBe(outcome.events.call);
    expect(outcome.events.result).toBe(outcome.events.result);
  });

  it('keeps config-only values and secrets out of the call event', async () => {
    const { tool } = stubTool({ configOnlyParams: ['cwd'], run: async () => 'done' });
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const outcome = await registry.dispatch(
      { id: 'c', name: 'stub', args: { text: 'curl -u admin:Sup3rS3cret@host password=hunter22' } },
      stubContext(['stub'], { config: { parameters: { cwd: '/srv/private' } } }),
    );

    expect(outcome.events.call.toolInput).toEqual({
      text: 'curl -u admin:[redacted] password=[redacted]',
    });
    expect(JSON.stringify(outcome.events)).not.toContain('/srv/private');
  });

  it('splits a media envelope into branded attachments and a plain result', async () => {
    const part: DurableMediaPart = {
      type: 'media',
      handle: `media://sha256-${'a'.repeat(64)}`,
      mimeType: 'image/png',
      sizeBytes: 3,
    };
    const { tool } = stubTool({ run: async () => withMedia({ shown: true }, [part]) });
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const outcome = await registry.dispatch(
      { id: 'c', name: 'stub', args: {} },
      stubContext(['stub']),
    );

    expect(outcome.output).toEqual({ shown: true });
    expect(unwrapUntrusted(outcome.toolResult).result).toEqual({ shown: true });
    expect(outcome.mediaAttachments).toBeDefined();
    expect(isUntrusted(outcome.mediaAttachments)).toBe(true);
    expect(outcome.mediaAttachments && unwrapUntrusted(outcome.mediaAttachments)).toEqual([part]);
  });

  it('maps output from the FULL result while the model gets a bounded preview and a spill', async () => {
    const big = 'x'.repeat(200_000);
    const spill = vi.fn(async (text: string) => ({ ref: '/spill/1.txt', byteLength: text.length }));
    const { tool } = stubTool({ run: async () => ({ stdout: big, exitCode: 0 }) });
    const registry = createToolRegistry({ tools: [tool], host: { outputStore: { spill } } });

    const outcome = await registry.dispatch(
      { id: 'c', name: 'stub', args: {} },
      stubContext(['stub'], { config: { outputMapping: { out: 'stdout', code: 'exitCode' } } }),
    );

    expect(outcome.output).toEqual({ out: big, code: 0 });
    expect(outcome.truncated).toBe(true);
    // The bulk string is spilled raw after the small fields: `{\n  "exitCode": 0\n}` + section line.
    expect(outcome.spill).toEqual({ ref: '/spill/1.txt', byteLength: 200_039 });
    const result = unwrapUntrusted(outcome.toolResult).result;
    expect(typeof result).toBe('string');
    expect((result as string).length).toBeLessThanOrEqual(51_200);
    expect(result).toContain('full output at /spill/1.txt');
    expect(outcome.events.result.outputSummary.length).toBeLessThanOrEqual(500);
  });

  it('uses ctx.limits over the defaults', async () => {
    const { tool } = stubTool({ run: async () => 'y'.repeat(300) });
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const outcome = await registry.dispatch(
      { id: 'c', name: 'stub', args: {} },
      stubContext(['stub'], { limits: { maxBytes: 200, maxLines: 10 } }),
    );

    expect(outcome.truncated).toBe(true);
    expect(unwrapUntrusted(outcome.toolResult).result).toContain(
      'full output unavailable (no_output_store)',
    );
  });
});

describe('dispatch: refusals happen before any host call', () => {
  const hostCalls = vi.fn();
  const run = async (): Promise<unknown> => {
    hostCalls();
    return 'ran';
  };

  it.each<[string, () => Promise<unknown>, Record<string, unknown>]>([
    [
      'provider-executed call (even for an unknown name)',
      () =>
        createToolRegistry({ tools: [stubTool({ run }).tool], host: {} }).dispatch(
          { id: 'c', name: 'nope', args: {}, providerExecuted: true },
          stubContext(['stub']),
        ),
      { code: 'tool_denied', reason: 'provider_executed' },
    ],
    [
      'unknown name',
      () =>
        createToolRegistry({ tools: [stubTool({ run }).tool], host: {} }).dispatch(
          { id: 'c', name: 'Stub', args: {} },
          stubContext(['stub', 'Stub']),
        ),
      { code: 'unknown_tool' },
    ],
    [
      'registered but not granted',
      () =>
        createToolRegistry({ tools: [stubTool({ run }).tool], host: {} }).dispatch(
          { id: 'c', name: 'stub', args: {} },
          stubContext(['other']),
        ),
      { code: 'tool_denied', reason: 'not_granted' },
    ],
    [
      'non-object args',
      () =>
        createToolRegistry({ tools: [stubTool({ run }).tool], host: {} }).dispatch(
          { id: 'c', name: 'stub', args: 'rm -rf /' },
          stubContext(['stub']),
        ),
      { code: 'tool_args_invalid', fields: ['(root)'] },
    ],
    [
      'secret-tainted effective key',
      () =>
        createToolRegistry({ tools: [stubTool({ run }).tool], host: {} }).dispatch(
          { id: 'c', name: 'stub', args: { token: 'x' } },
          stubContext(['stub'], { secretArgKeys: new Set(['token']) }),
        ),
      { code: 'tool_args_invalid', fields: ['token'] },
    ],
    [
      'invalid args',
      () =>
        createToolRegistry({ tools: [stubTool({ run }).tool], host: {} }).dispatch(
          { id: 'c', name: 'stub', args: { count: 'many' } },
          stubContext(['stub']),
        ),
      { code: 'tool_args_invalid', fields: ['count'] },
    ],
    [
      'command off the allowlist',
      () =>
        createToolRegistry({ tools: [commandTool({ run }).tool], host: {} }).dispatch(
          { id: 'c', name: 'run', args: { command: 'rm', args: ['-rf', '/'] } },
          stubContext(['run'], { toolPolicy: { allowedCommands: ['ls'] } }),
        ),
      { code: 'tool_denied', reason: 'command_not_allowed' },
    ],
    [
      'gate not approved',
      () =>
        createToolRegistry({
          tools: [
            stubTool({ run, policy: { requiresGateApproval: true, spawnsProcess: true } }).tool,
          ],
          host: {},
        }).dispatch({ id: 'c', name: 'stub', args: {} }, stubContext(['stub'])),
      { code: 'tool_denied', reason: 'gate_required' },
    ],
    [
      'domain off the allowlist',
      () =>
        createToolRegistry({ tools: [httpTool({ run }).tool], host: {} }).dispatch(
          { id: 'c', name: 'http', args: { url: 'https://evil.example/' } },
          stubContext(['http'], { toolPolicy: { allowedDomains: ['good.example'] } }),
        ),
      { code: 'tool_denied', reason: 'domain_not_allowed' },
    ],
    [
      'approval rejected',
      () =>
        createToolRegistry({
          tools: [stubTool({ run, policy: { os: true } }).tool],
          host: {},
        }).dispatch(
          { id: 'c', name: 'stub', args: {} },
          stubContext(['stub'], { approval: { confirm: async () => ({ outcome: 'reject' }) } }),
        ),
      { code: 'tool_denied', reason: 'user_rejected' },
    ],
    [
      'approval regime without a hook',
      () =>
        createToolRegistry({
          tools: [stubTool({ run, policy: { fsWrite: true } }).tool],
          host: {},
        }).dispatch({ id: 'c', name: 'stub', args: {} }, stubContext(['stub'], { approval: {} })),
      { code: 'tool_denied', reason: 'no_approval_hook' },
    ],
    [
      'beforeDispatch refusal',
      () =>
        createToolRegistry({ tools: [stubTool({ run }).tool], host: {} }).dispatch(
          { id: 'c', name: 'stub', args: {} },
          stubContext(['stub'], {
            beforeDispatch: () => {
              throw new Error('latched');
            },
          }),
        ),
      { code: 'tool_failed', reason: 'admission_refused', recoverable: false },
    ],
    [
      'signal already aborted',
      () =>
        createToolRegistry({ tools: [stubTool({ run }).tool], host: {} }).dispatch(
          { id: 'c', name: 'stub', args: {} },
          stubContext(['stub'], { signal: AbortSignal.abort() }),
        ),
      { code: 'cancelled' },
    ],
  ])('refuses a %s with no host call', async (_case, attempt, expected) => {
    hostCalls.mockClear();

    await expect(attempt()).rejects.toMatchObject(expected);

    expect(hostCalls).not.toHaveBeenCalled();
  });
});

describe('dispatch: the admission hook', () => {
  it('refuses an async beforeDispatch (fail closed) and handles its rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', onUnhandled);
    const { tool, calls } = stubTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const attempt = registry.dispatch(
      { id: 'c', name: 'stub', args: {} },
      stubContext(['stub'], {
        beforeDispatch: async () => {
          await Promise.resolve();
          throw new Error('durability latch');
        },
      }),
    );
    const settled = await attempt.catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 10));
    process.off('unhandledRejection', onUnhandled);

    expect(settled).toMatchObject({ code: 'tool_failed', reason: 'admission_refused' });
    expect(calls).toEqual([]);
    expect(unhandled).toEqual([]);
  });

  it('refuses an async beforeDispatch that resolves: waiting is not admission', async () => {
    const { tool, calls } = stubTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const attempt = registry.dispatch(
      { id: 'c', name: 'stub', args: {} },
      stubContext(['stub'], { beforeDispatch: async () => undefined }),
    );

    await expect(attempt).rejects.toMatchObject({ reason: 'admission_refused' });
    expect(calls).toEqual([]);
  });
});

describe('dispatch: the order of the steps', () => {
  it('refuses provider-executed before resolving the name', async () => {
    const registry = createToolRegistry({ tools: [], host: {} });

    const attempt = registry.dispatch(
      { id: 'c', name: 'ghost', args: {}, providerExecuted: true },
      stubContext([]),
    );

    await expect(attempt).rejects.toBeInstanceOf(ToolPolicyError);
  });

  it('resolves the name before checking the grant', async () => {
    const registry = createToolRegistry({ tools: [stubTool().tool], host: {} });

    const attempt = registry.dispatch({ id: 'c', name: 'ghost', args: {} }, stubContext([]));

    await expect(attempt).rejects.toBeInstanceOf(UnknownToolError);
  });

  it('checks the grant before looking at the args', async () => {
    const registry = createToolRegistry({ tools: [stubTool().tool], host: {} });

    const attempt = registry.dispatch({ id: 'c', name: 'stub', args: 'garbage' }, stubContext([]));

    await expect(attempt).rejects.toMatchObject({ reason: 'not_granted' });
  });

  it('checks secret taint before the schema', async () => {
    const registry = createToolRegistry({ tools: [stubTool().tool], host: {} });

    const attempt = registry.dispatch(
      { id: 'c', name: 'stub', args: { token: 'x', count: 'not a number' } },
      stubContext(['stub'], { secretArgKeys: new Set(['token']) }),
    );

    await expect(attempt).rejects.toMatchObject({
      fields: ['token'],
      issues: [{ problem: 'secret_tainted' }],
    });
  });

  it('validates args before the guardrails', async () => {
    const registry = createToolRegistry({ tools: [commandTool().tool], host: {} });

    const attempt = registry.dispatch(
      { id: 'c', name: 'run', args: { command: 'rm', count: 'x' } },
      stubContext(['run']),
    );

    await expect(attempt).rejects.toBeInstanceOf(ToolArgsInvalidError);
  });

  it('runs the guardrails before asking for approval', async () => {
    const confirm = vi.fn(async () => ({ outcome: 'approve' as const }));
    const registry = createToolRegistry({ tools: [commandTool().tool], host: {} });

    const attempt = registry.dispatch(
      { id: 'c', name: 'run', args: { command: 'rm' } },
      stubContext(['run'], { approval: { confirm } }),
    );

    await expect(attempt).rejects.toMatchObject({ reason: 'command_not_allowed' });
    expect(confirm).not.toHaveBeenCalled();
  });

  it('asks for approval before the admission hook, and admits with the frozen target', async () => {
    const order: string[] = [];
    const beforeDispatch = vi.fn((_toolId: string, _target?: PolicyTarget) => {
      order.push('admit');
    });
    const { tool } = commandTool({
      run: async () => {
        order.push('host');
        return 'ok';
      },
    });
    const registry = createToolRegistry({ tools: [tool], host: {} });

    await registry.dispatch(
      { id: 'c', name: 'run', args: { command: 'ls', args: ['-l'] } },
      stubContext(['run'], {
        toolPolicy: { allowedCommands: ['ls -l'] },
        beforeDispatch,
        approval: {
          confirm: async () => {
            order.push('approve');
            return { outcome: 'approve' };
          },
        },
      }),
    );

    expect(order).toEqual(['approve', 'admit', 'host']);
    expect(beforeDispatch).toHaveBeenCalledWith('run', { command: 'ls -l', argv: ['ls', '-l'] });
    expect(Object.isFrozen(beforeDispatch.mock.calls[0]?.[1])).toBe(true);
  });
});

describe('dispatch: effective arguments', () => {
  it('ignores a model-supplied config-only cwd and uses the pinned one', async () => {
    const { tool, calls } = stubTool({ configOnlyParams: ['cwd'] });
    const registry = createToolRegistry({ tools: [tool], host: {} });

    await registry.dispatch(
      { id: 'c', name: 'stub', args: { text: 'hi', cwd: '/etc' } },
      stubContext(['stub'], { config: { parameters: { cwd: 'app' } } }),
    );

    expect(calls[0]?.args).toEqual({ text: 'hi', cwd: 'app' });
  });

  it('drops a model-supplied config-only key even when config pins nothing', async () => {
    const { tool, calls } = stubTool({ configOnlyParams: ['cwd'] });
    const registry = createToolRegistry({ tools: [tool], host: {} });

    await registry.dispatch(
      { id: 'c', name: 'stub', args: { cwd: '/etc' } },
      stubContext(['stub']),
    );

    expect(calls[0]?.args).toEqual({});
  });

  it('runs a tool node with no model args from inputMapping alone', async () => {
    const { tool, calls } = stubTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });

    await registry.dispatch(
      { id: 'c', name: 'stub' },
      // Mapped values need a provenance verdict: the empty set says none is tainted.
      stubContext(['stub'], {
        config: { inputMapping: { text: 'mapped' } },
        secretArgKeys: new Set(),
      }),
    );

    expect(calls[0]?.args).toEqual({ text: 'mapped' });
  });

  it('judges the policy on an inputMapping-derived command, not the model one', async () => {
    const { tool, calls } = commandTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const attempt = registry.dispatch(
      { id: 'c', name: 'run', args: { command: 'ls' } },
      stubContext(['run'], {
        config: { inputMapping: { command: 'curl', args: ['https://evil.example'] } },
        secretArgKeys: new Set(),
        toolPolicy: { allowedCommands: ['ls'] },
      }),
    );

    await expect(attempt).rejects.toMatchObject({ reason: 'command_not_allowed' });
    expect(calls).toEqual([]);
  });

  it('judges the policy on an inputMapping-derived URL', async () => {
    const { tool } = httpTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const attempt = registry.dispatch(
      { id: 'c', name: 'http' },
      stubContext(['http'], {
        config: { inputMapping: { url: 'http://good.example/' } },
        secretArgKeys: new Set(),
        toolPolicy: { allowedDomains: ['good.example'] },
      }),
    );

    await expect(attempt).rejects.toMatchObject({ reason: 'insecure_url' });
  });
});

describe('dispatch: the host call', () => {
  it('passes a typed host denial through verbatim', async () => {
    const denial = new ToolPolicyError('stub', 'scope_escape');
    const { tool } = stubTool({
      run: async () => {
        throw denial;
      },
    });
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const attempt = registry.dispatch({ id: 'c', name: 'stub', args: {} }, stubContext(['stub']));

    await expect(attempt).rejects.toBe(denial);
  });

  it('stamps a typed denial from a shared arm with the tool the model called', async () => {
    const denial = new ToolPolicyError('http_request', 'ssrf_blocked');
    const { tool } = stubTool({
      run: async () => {
        throw denial;
      },
    });
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const attempt = registry.dispatch({ id: 'c', name: 'stub', args: {} }, stubContext(['stub']));

    await expect(attempt).rejects.toMatchObject({
      name: 'ToolPolicyError',
      toolId: 'stub',
      reason: 'ssrf_blocked',
      recoverable: false,
      message: 'tool stub denied: ssrf_blocked',
      cause: denial,
    });
  });

  it('reports an absent arm as ToolUnavailableError naming it', async () => {
    const { tool } = stubTool({
      run: async (_args, host: ToolHost) =>
        requireArm('stub', host.fs, 'fs').readFile({ path: 'a' }),
    });
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const attempt = registry.dispatch({ id: 'c', name: 'stub', args: {} }, stubContext(['stub']));

    await expect(attempt).rejects.toBeInstanceOf(ToolUnavailableError);
    await expect(attempt).rejects.toMatchObject({
      capability: 'fs',
      message: 'tool stub unavailable: the host has no fs capability',
    });
  });

  it.each<[string, Record<string, unknown>, boolean]>([
    ['an idempotent read', {}, true],
    ['an fs write', { fsWrite: true }, false],
    ['a process', { spawnsProcess: true }, false],
    ['an egress', { egress: 'search' }, false],
    ['an os action', { os: true }, false],
  ])(
    'wraps a raw host throw of %s as host_error (recoverable: %s)',
    async (_case, policy, recoverable) => {
      const cause = new Error('EIO /secret/path');
      const { tool } = stubTool({
        policy,
        run: async () => {
          throw cause;
        },
      });
      const registry = createToolRegistry({ tools: [tool], host: {} });

      const attempt = registry.dispatch({ id: 'c', name: 'stub', args: {} }, stubContext(['stub']));

      await expect(attempt).rejects.toBeInstanceOf(ToolExecutionError);
      await expect(attempt).rejects.toMatchObject({
        reason: 'host_error',
        recoverable,
        cause,
        message: 'tool stub failed: host_error',
      });
    },
  );

  it('turns a success that lands after an abort into a cancel', async () => {
    const controller = new AbortController();
    const { tool } = stubTool({
      run: async () => {
        controller.abort();
        return 'done anyway';
      },
    });
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const attempt = registry.dispatch(
      { id: 'c', name: 'stub', args: {} },
      stubContext(['stub'], { signal: controller.signal }),
    );

    await expect(attempt).rejects.toBeInstanceOf(ToolCancelledError);
  });

  it('lets cancel beat a typed host error thrown after the abort', async () => {
    const controller = new AbortController();
    const { tool } = stubTool({
      run: async () => {
        controller.abort();
        throw new ToolPolicyError('stub', 'ssrf_blocked');
      },
    });
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const attempt = registry.dispatch(
      { id: 'c', name: 'stub', args: {} },
      stubContext(['stub'], { signal: controller.signal }),
    );

    await expect(attempt).rejects.toBeInstanceOf(ToolCancelledError);
  });

  it('passes the context and host through to the tool', async () => {
    const host: ToolHost = {};
    const seen: { host?: ToolHost; ctx?: ToolDispatchContext } = {};
    const { tool } = stubTool({
      run: async (_args, receivedHost, ctx) => {
        seen.host = receivedHost;
        seen.ctx = ctx;
        return null;
      },
    });
    const registry = createToolRegistry({ tools: [tool], host });
    const ctx = stubContext(['stub']);

    await registry.dispatch({ id: 'c', name: 'stub', args: {} }, ctx);

    expect(seen.host).toBe(host);
    expect(seen.ctx).toBe(ctx);
  });
});

describe('dispatch: approval wiring', () => {
  it('does not ask under the author-trust path (no ctx.approval)', async () => {
    const { tool, calls } = stubTool({ policy: { fsWrite: true } });
    const registry = createToolRegistry({ tools: [tool], host: {} });

    await registry.dispatch({ id: 'c', name: 'stub', args: {} }, stubContext(['stub']));

    expect(calls).toHaveLength(1);
  });

  it('does not gate a process tool whose command is config-pinned (no target)', async () => {
    const confirm = vi.fn(async () => ({ outcome: 'reject' as const }));
    const { tool, calls } = stubTool({ policy: { spawnsProcess: true } });
    const registry = createToolRegistry({ tools: [tool], host: {} });

    await registry.dispatch(
      { id: 'c', name: 'stub', args: {} },
      stubContext(['stub'], { approval: { confirm } }),
    );

    expect(confirm).not.toHaveBeenCalled();
    expect(calls).toHaveLength(1);
  });

  it('never runs the host when the approve arrives after an abort', async () => {
    const controller = new AbortController();
    const { tool, calls } = stubTool({ policy: { os: true } });
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const attempt = registry.dispatch(
      { id: 'c', name: 'stub', args: {} },
      stubContext(['stub'], {
        signal: controller.signal,
        approval: {
          confirm: async () => {
            controller.abort();
            return { outcome: 'approve' };
          },
        },
      }),
    );

    await expect(attempt).rejects.toBeInstanceOf(ToolCancelledError);
    expect(calls).toEqual([]);
  });

  it('denies with the approver reason kept off the message', async () => {
    const registry = createToolRegistry({
      tools: [stubTool({ policy: { os: true } }).tool],
      host: {},
    });

    const attempt = registry.dispatch(
      { id: 'c', name: 'stub', args: {} },
      stubContext(['stub'], {
        approval: { confirm: async () => ({ outcome: 'reject', reason: 'plan mode' }) },
      }),
    );

    await expect(attempt).rejects.toBeInstanceOf(ToolDeniedByUserError);
    await expect(attempt).rejects.toMatchObject({
      userReason: 'plan mode',
      message: 'tool stub denied by approval: user_rejected',
    });
  });
});
