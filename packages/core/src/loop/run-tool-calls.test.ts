import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { effectArgsDigest } from '../journal/effect-identity.js';
import { createMemoryEffectJournal } from '../journal/memory-effect-journal.js';
import type { ToolDispatchContext } from '../dispatch-context.js';
import {
  ToolCancelledError,
  ToolDeniedByUserError,
  ToolExecutionError,
  ToolPolicyError,
  UnknownToolError,
} from '../errors.js';
import { isUntrusted, unwrapUntrusted } from '../untrusted.js';
import { createCorrectionBudget } from './correction-budget.js';
import type { ToolResultPart } from './loop-messages.js';
import { runToolCalls } from './run-tool-calls.js';
import { createRecordingRegistry } from './test-support/recording-registry.js';
import {
  echoTool,
  failTool,
  imageTool,
  retainedEntries,
  retainedTool,
  samplePng,
  saveTool,
  slowTool,
} from './test-support/sample-tools.js';

const registry = createRecordingRegistry([echoTool, saveTool, failTool, imageTool, slowTool]);

function context(overrides: Partial<ToolDispatchContext> = {}): ToolDispatchContext {
  return {
    nodeId: 'agent',
    grantedToolIds: new Set(registry.list()),
    config: {},
    toolPolicy: {},
    fsScope: 'sandboxed',
    gateApproved: false,
    ...overrides,
  };
}

function contents(parts: readonly ToolResultPart[]): unknown[] {
  return parts.map((part) => unwrapUntrusted(part.content));
}

describe('runToolCalls', () => {
  it('returns one branded result per call, in call order', async () => {
    const calls = [
      { id: 'c1', name: 'echo', args: { text: 'one' } },
      { id: 'c2', name: 'save', args: { note: 'two' } },
    ];

    const round = await runToolCalls(calls, {
      registry,
      ctx: context(),
      budget: createCorrectionBudget(),
    });

    expect(round.toolMessage.content.map((part) => [part.toolCallId, part.isError])).toEqual([
      ['c1', false],
      ['c2', false],
    ]);
    expect(round.toolMessage.content.every((part) => isUntrusted(part.content))).toBe(true);
    expect(contents(round.toolMessage.content)).toEqual(['one', { saved: 3 }]);
    expect(round.attachments).toBeUndefined();
  });

  it.each([
    [
      'an unknown tool',
      { name: 'ehco', args: { text: 'x' } },
      'unknown tool "ehco"; available tools: echo, fail, image, save, slow',
    ],
    [
      'invalid args',
      { name: 'echo', args: { txt: 'x' } },
      'tool echo args invalid: text (invalid_type), txt (unrecognized_key)',
    ],
    [
      'a correctable tool error with detail',
      { name: 'fail', args: { reason: 'correctable' } },
      'tool fail failed: tool_error\ncolumn "nme" does not exist',
    ],
  ])('feeds back %s as an isError result', async (_case, call, text) => {
    const round = await runToolCalls([{ id: 'c1', ...call }], {
      registry,
      ctx: context(),
      budget: createCorrectionBudget(),
    });

    expect(round.toolMessage.content[0]?.isError).toBe(true);
    expect(contents(round.toolMessage.content)).toEqual([text]);
  });

  it('never echoes an argument value in fed-back text', async () => {
    const round = await runToolCalls(
      [{ id: 'c1', name: 'echo', args: { text: 42, token: 'sk-live-abcdef' } }],
      { registry, ctx: context(), budget: createCorrectionBudget() },
    );

    expect(JSON.stringify(contents(round.toolMessage.content))).not.toMatch(/sk-live|42/);
  });

  it('charges one correction per round however many calls in it fail', async () => {
    const budget = createCorrectionBudget(3);
    const bad = { id: 'c', name: 'nope', args: {} };

    await runToolCalls([bad, bad, bad], { registry, ctx: context(), budget });

    expect(budget.used).toBe(1);
  });

  it('ends the turn with the typed error once the correction budget is spent', async () => {
    const budget = createCorrectionBudget(3);
    const bad = [{ id: 'c', name: 'nope', args: {} }];
    for (let round = 0; round < 3; round += 1) {
      await runToolCalls(bad, { registry, ctx: context(), budget });
    }

    const fourth = runToolCalls(bad, { registry, ctx: context(), budget });

    await expect(fourth).rejects.toBeInstanceOf(UnknownToolError);
  });

  it('ends the turn on a recoverable failure unless the surface opts in', async () => {
    const call = [{ id: 'c1', name: 'fail', args: { reason: 'recoverable' } }];

    const failFast = runToolCalls(call, {
      registry,
      ctx: context(),
      budget: createCorrectionBudget(),
    });
    const recovered = await runToolCalls(call, {
      registry,
      ctx: context(),
      budget: createCorrectionBudget(),
      recoverToolFailures: true,
    });

    await expect(failFast).rejects.toBeInstanceOf(ToolPolicyError);
    expect(contents(recovered.toolMessage.content)).toEqual(['tool fail denied: scope_escape']);
  });

  it('ends the turn on a fatal failure and dispatches nothing after it', async () => {
    const stub = createRecordingRegistry([echoTool, failTool]);
    const calls = [
      { id: 'c1', name: 'fail', args: { reason: 'fatal' } },
      { id: 'c2', name: 'echo', args: { text: 'after' } },
    ];

    const attempt = runToolCalls(calls, {
      registry: stub,
      ctx: { ...context(), grantedToolIds: new Set(['echo', 'fail']) },
      budget: createCorrectionBudget(),
      recoverToolFailures: true,
    });

    await expect(attempt).rejects.toMatchObject({
      code: 'tool_failed',
      message: 'tool fail failed: exit_signal',
    });
    expect(stub.calls.map((call) => call.id)).toEqual(['c1']);
  });

  it('ends the turn when approval is rejected, even with budget left', async () => {
    const ctx = context({ approval: { confirm: async () => ({ outcome: 'reject' }) } });

    const attempt = runToolCalls([{ id: 'c1', name: 'save', args: { note: 'x' } }], {
      registry,
      ctx,
      budget: createCorrectionBudget(),
      recoverToolFailures: true,
    });

    await expect(attempt).rejects.toBeInstanceOf(ToolDeniedByUserError);
  });

  it('ends the turn as cancelled when the signal fires mid-tool', async () => {
    const controller = new AbortController();
    const attempt = runToolCalls([{ id: 'c1', name: 'slow', args: {} }], {
      registry,
      ctx: context({ signal: controller.signal }),
      budget: createCorrectionBudget(),
    });
    await new Promise((resolve) => setTimeout(resolve, 5));

    controller.abort();

    await expect(attempt).rejects.toBeInstanceOf(ToolCancelledError);
  });

  it('dispatches nothing once the signal has fired', async () => {
    const stub = createRecordingRegistry([echoTool]);
    const controller = new AbortController();
    controller.abort();

    const attempt = runToolCalls([{ id: 'c1', name: 'echo', args: { text: 'x' } }], {
      registry: stub,
      ctx: { ...context({ signal: controller.signal }), grantedToolIds: new Set(['echo']) },
      budget: createCorrectionBudget(),
    });

    await expect(attempt).rejects.toMatchObject({
      code: 'cancelled',
      message: 'tool echo cancelled',
    });
    expect(stub.calls).toEqual([]);
  });

  it('delivers every attachment on one fenced user message after the tool results', async () => {
    const calls = [
      { id: 'c1', name: 'image', args: { name: 'a' } },
      { id: 'c2', name: 'echo', args: { text: 'between' } },
      { id: 'c3', name: 'image', args: { name: 'b' } },
    ];

    const round = await runToolCalls(calls, {
      registry,
      ctx: context(),
      budget: createCorrectionBudget(),
      randomNonce: () => 'n0nce',
    });

    const content = round.attachments?.content ?? [];
    expect(round.attachments?.role).toBe('user');
    expect(
      content.map((part) => (part.type === 'text' ? part.text.split('\n')[0] : part.toolCallId)),
    ).toEqual([
      '<reported-content nonce="n0nce">',
      'c1',
      'c3',
      '</reported-content nonce="n0nce">',
    ]);
    const media = content.flatMap((part) =>
      part.type === 'media' ? [unwrapUntrusted(part.media)] : [],
    );
    expect(media).toEqual([samplePng('a'), samplePng('b')]);
    expect(contents(round.toolMessage.content)).toEqual([{ name: 'a' }, 'between', { name: 'b' }]);
  });

  it('draws a fresh nonce for every round with media', async () => {
    const call = [{ id: 'c1', name: 'image', args: { name: 'a' } }];
    const options = { registry, ctx: context(), budget: createCorrectionBudget() };

    const [first, second] = await Promise.all([
      runToolCalls(call, options),
      runToolCalls(call, options),
    ]);

    const opening = (round: typeof first) => {
      const part = round.attachments?.content[0];
      return part?.type === 'text' ? part.text : '';
    };
    expect(opening(first)).toMatch(/^<reported-content nonce="[0-9a-f]{32}">/);
    expect(opening(first)).not.toBe(opening(second));
  });

  it('does not feed back a thrown non-toolhost error', async () => {
    const broken = { ...registry, dispatch: async () => Promise.reject(new Error('boom /etc/x')) };

    const attempt = runToolCalls([{ id: 'c1', name: 'echo', args: { text: 'x' } }], {
      registry: broken,
      ctx: context(),
      budget: createCorrectionBudget(),
      recoverToolFailures: true,
    });

    await expect(attempt).rejects.not.toBeInstanceOf(ToolExecutionError);
    await expect(attempt).rejects.toThrow('boom');
  });
});

describe('runToolCalls with a context per call', () => {
  it('dispatches each call under the context built for it', async () => {
    const ctx = context();
    const perCall = (call: { name: string }) =>
      call.name === 'echo' ? { ...ctx, config: { parameters: { prefix: '> ' } } } : ctx;

    const round = await runToolCalls(
      [
        { id: 'c1', name: 'echo', args: { text: 'a' } },
        { id: 'c2', name: 'save', args: { note: 'b' } },
      ],
      { registry, ctx: perCall, budget: createCorrectionBudget() },
    );

    expect(contents(round.toolMessage.content)).toEqual(['> a', { saved: 1 }]);
  });
});

describe('runToolCalls on a crashing tool', () => {
  it('feeds back the fixed reason, never the thrown message', async () => {
    const round = await runToolCalls([{ id: 'c1', name: 'fail', args: { reason: 'crash' } }], {
      registry,
      ctx: context(),
      budget: createCorrectionBudget(),
      recoverToolFailures: true,
    });

    expect(contents(round.toolMessage.content)).toEqual(['tool fail failed: host_error']);
  });
});

describe('runToolCalls with the runner execution authority', () => {
  const retaining = createRecordingRegistry([echoTool, retainedTool]);
  const grant = { grantedToolIds: new Set(['echo', 'retained']) };
  const refusal = Object.freeze({ departed: 'runner-7' });
  beforeEach(() => {
    retainedEntries.count = 0;
  });

  it('runs every host call inside the runner retainWork', async () => {
    const retained: string[] = [];
    const hostCallOptions = {
      retainWork: <T>(factory: () => Promise<T>) => {
        retained.push('retained');
        return factory();
      },
    };

    const round = await runToolCalls(
      [
        { id: 'c1', name: 'retained', args: {} },
        { id: 'c2', name: 'retained', args: {} },
      ],
      {
        registry: retaining,
        ctx: context(grant),
        budget: createCorrectionBudget(),
        hostCallOptions,
      },
    );

    expect(contents(round.toolMessage.content)).toEqual(['done', 'done']);
    expect(retained).toEqual(['retained', 'retained']);
  });

  it('clears a retainer the prepared context carried: only the execution supplies it', async () => {
    let retained = 0;
    const prepared = context({
      ...grant,
      hostCallOptions: { retainWork: (factory) => ((retained += 1), factory()) },
    });

    await runToolCalls([{ id: 'c1', name: 'retained', args: {} }], {
      registry: retaining,
      ctx: prepared,
      budget: createCorrectionBudget(),
    });

    expect(retained).toBe(0);
    expect(retainedEntries.count).toBe(1);
  });

  it('admits each call through beforeDispatch, whose refusal ends the turn unrun', async () => {
    const admitted: string[] = [];
    const beforeDispatch = (toolId: string) => {
      admitted.push(toolId);
      if (toolId === 'retained') throw new Error('durability latch closed');
    };

    const attempt = runToolCalls(
      [
        { id: 'c1', name: 'echo', args: { text: 'x' } },
        { id: 'c2', name: 'retained', args: {} },
      ],
      {
        registry: retaining,
        ctx: context(grant),
        budget: createCorrectionBudget(),
        beforeDispatch,
      },
    );

    await expect(attempt).rejects.toMatchObject({ toolId: 'retained', code: 'tool_failed' });
    expect(admitted).toEqual(['echo', 'retained']);
    expect(retainedEntries.count).toBe(0);
  });

  it.each([
    ['before entry', <T>(_factory: () => Promise<T>): Promise<T> => Promise.reject(refusal)],
    [
      'after entry, the work still owned',
      async <T>(factory: () => Promise<T>): Promise<T> => {
        void factory();
        throw refusal;
      },
    ],
  ])(
    'ends the turn with the runner’s own refusal %s, never fed back',
    async (_case, retainWork) => {
      const budget = createCorrectionBudget();

      const attempt = runToolCalls([{ id: 'c1', name: 'retained', args: {} }], {
        registry: retaining,
        ctx: context(grant),
        budget,
        recoverToolFailures: true,
        hostCallOptions: { retainWork },
      });

      await expect(attempt).rejects.toBe(refusal);
      expect(budget.used).toBe(0);
    },
  );

  it('keeps a genuine fault of the retained work an ordinary tool failure', async () => {
    const round = await runToolCalls([{ id: 'c1', name: 'retained', args: { crash: true } }], {
      registry: retaining,
      ctx: context(grant),
      budget: createCorrectionBudget(),
      recoverToolFailures: true,
      hostCallOptions: { retainWork: (factory) => factory() },
    });

    expect(contents(round.toolMessage.content)).toEqual(['tool retained failed: host_error']);
  });
});

describe('runToolCalls one call at a time', () => {
  it('charges one correction for calls of one response run separately', async () => {
    const budget = createCorrectionBudget(3);
    const round = {};
    const bad = [{ id: 'c', name: 'nope', args: {} }];

    await runToolCalls(bad, { registry, ctx: context(), budget, round });
    await runToolCalls(bad, { registry, ctx: context(), budget, round });

    expect(budget.used).toBe(1);
  });

  it('reports every settled result before a later call ends the turn', async () => {
    const settled: string[] = [];
    const calls = [
      { id: 'c1', name: 'echo', args: { text: 'ran' } },
      { id: 'c2', name: 'nope', args: {} },
      { id: 'c3', name: 'fail', args: { reason: 'fatal' } },
      { id: 'c4', name: 'echo', args: { text: 'never' } },
    ];

    const attempt = runToolCalls(calls, {
      registry,
      ctx: context(),
      budget: createCorrectionBudget(),
      onResult: (part) => settled.push(`${part.toolCallId} ${String(part.isError)}`),
    });

    await expect(attempt).rejects.toMatchObject({ message: 'tool fail failed: exit_signal' });
    expect(settled).toEqual(['c1 false', 'c2 true']);
  });
});

describe('runToolCalls: the journal', () => {
  // A write that counts its effects, registered on its own registry.
  function countingWrite() {
    let effects = 0;
    const tool = defineTool({
      id: 'append',
      description: 'Append a line',
      args: z.strictObject({ line: z.string() }),
      policy: { fsScoped: true, fsWrite: true, spawnsProcess: false, requiresGateApproval: false },
      dispatch: async ({ line }) => {
        effects += 1;
        return { appended: line, effects };
      },
    });
    return { registry: createRecordingRegistry([tool]), effects: () => effects };
  }
  const calls = [{ id: 'toolu_1', name: 'append', args: { line: 'once' } }];
  const appendContext = (overrides: Partial<ToolDispatchContext> = {}): ToolDispatchContext => ({
    ...context(),
    grantedToolIds: new Set(['append']),
    ...overrides,
  });

  it('replays a resumed round (same run, same call ids) instead of repeating it', async () => {
    const { registry: appendRegistry, effects } = countingWrite();
    const journal = { store: createMemoryEffectJournal(), runId: 'run-1' };
    const run = () =>
      runToolCalls(calls, {
        registry: appendRegistry,
        ctx: appendContext(),
        budget: createCorrectionBudget(),
        journal,
      });

    const first = await run();
    const resumed = await run();

    expect(effects()).toBe(1);
    expect(contents(resumed.toolMessage.content)).toEqual(contents(first.toolMessage.content));
  });

  it('takes the journal from the prepared context when the option is absent', async () => {
    const { registry: appendRegistry, effects } = countingWrite();
    const journal = { store: createMemoryEffectJournal(), runId: 'run-1' };
    const run = () =>
      runToolCalls(calls, {
        registry: appendRegistry,
        ctx: appendContext({ journal }),
        budget: createCorrectionBudget(),
      });

    await run();
    await run();

    expect(effects()).toBe(1);
  });

  it('ends the turn on an unresolved call instead of feeding it back', async () => {
    const { registry: appendRegistry } = countingWrite();
    const store = createMemoryEffectJournal();
    const argsDigest = await effectArgsDigest({ line: 'once' });
    await store.prepare({ runId: 'run-1', callKey: 'toolu_1', toolId: 'append', argsDigest });

    const attempt = runToolCalls(calls, {
      registry: appendRegistry,
      ctx: appendContext(),
      budget: createCorrectionBudget(),
      recoverToolFailures: true,
      journal: { store, runId: 'run-1' },
    });

    await expect(attempt).rejects.toMatchObject({ reason: 'effect_unresolved' });
  });
});
