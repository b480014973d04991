import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ToolDispatchContext } from '../dispatch-context.js';
import {
  classifyToolError,
  EffectJournalError,
  refusedBeforeEffect,
  ToolArgsInvalidError,
  ToolExecutionError,
  ToolPolicyError,
  ToolUnavailableError,
} from '../errors.js';
import { DEFAULT_MAX_RECORD_BYTES } from '../journal/dispatch-record.js';
import type { EffectJournal, EffectKey } from '../journal/effect-journal.js';
import { effectArgsDigest, effectIdempotencyKey } from '../journal/effect-identity.js';
import { createMemoryEffectJournal } from '../journal/memory-effect-journal.js';
import {
  OPERATOR_RESOLVED_RESULT,
  operatorResolvedRecord,
} from '../journal/operator-resolved-record.js';
import { createToolRegistry } from '../registry.js';
import type { ToolHostCallOptions } from '../tool-host.js';
import { gitStatusTool } from '../tools/git-status.js';
import { unwrapUntrusted } from '../untrusted.js';
import { withMedia } from '../with-media.js';
import { stubContext, stubTool, type StubToolOptions } from './test-support/stub-tools.js';
import type { ToolCall } from './tool-call.js';

// A side-effecting tool (an OS action) that counts its effects.
function effectTool(options: StubToolOptions = {}) {
  return stubTool({ id: 'effect', policy: { os: true }, ...options });
}

function journalContext(
  store: EffectJournal,
  overrides: Partial<ToolDispatchContext> = {},
  runId = 'run-1',
): ToolDispatchContext {
  return stubContext(['effect', 'stub', 'git_status'], { journal: { store, runId }, ...overrides });
}

const CALL: ToolCall = { id: 'call-1', name: 'effect', args: { text: 'hello' } };

type JournalMethod = 'lookup' | 'prepare' | 'settle' | 'discard';

// Every call the journal receives, with a failure switch per method.
function recordingJournal(
  inner: EffectJournal = createMemoryEffectJournal(),
  fail: Partial<Record<JournalMethod, boolean>> = {},
) {
  const calls: { method: JournalMethod; args: unknown[] }[] = [];
  const wrap =
    <M extends JournalMethod>(method: M) =>
    (...args: Parameters<EffectJournal[M]>) => {
      calls.push({ method, args });
      if (fail[method] === true) return Promise.reject(new Error(`${method} failed`));
      return (inner[method] as (...a: Parameters<EffectJournal[M]>) => Promise<unknown>)(...args);
    };
  const store = {
    lookup: wrap('lookup'),
    prepare: wrap('prepare'),
    settle: wrap('settle'),
    discard: wrap('discard'),
  } as EffectJournal;
  return { store, calls, methods: () => calls.map((call) => call.method) };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('journalBracket: replay', () => {
  it('replays a settled call with the same toolResult and output, running nothing', async () => {
    const store = createMemoryEffectJournal();
    const { tool, calls } = effectTool({ run: async () => ({ sent: true, id: 7 }) });
    const registry = createToolRegistry({ tools: [tool], host: {} });
    const beforeDispatch = vi.fn();

    const first = await registry.dispatch(CALL, journalContext(store, { beforeDispatch }));
    const second = await registry.dispatch(CALL, journalContext(store, { beforeDispatch }));

    expect(calls).toHaveLength(1);
    expect(beforeDispatch).toHaveBeenCalledTimes(1);
    expect(unwrapUntrusted(second.toolResult)).toEqual(unwrapUntrusted(first.toolResult));
    expect(second.output).toEqual(first.output);
    expect(first.journal).toEqual({
      status: 'settled',
      outputDropped: false,
      operatorResolved: false,
    });
    expect(second.journal).toEqual({
      status: 'replayed',
      outputDropped: false,
      operatorResolved: false,
    });
  });

  it('replays across registries sharing the store, as a resumed process would', async () => {
    const store = createMemoryEffectJournal();
    const before = effectTool({ run: async () => 'done once' });
    const after = effectTool({ run: async () => 'done twice' });

    await createToolRegistry({ tools: [before.tool], host: {} }).dispatch(
      CALL,
      journalContext(store),
    );
    const resumed = await createToolRegistry({ tools: [after.tool], host: {} }).dispatch(
      CALL,
      journalContext(store),
    );

    expect(after.calls).toHaveLength(0);
    expect(unwrapUntrusted(resumed.toolResult).result).toBe('done once');
    expect(resumed.events.result.success).toBe(true);
  });

  it('replays the cut model view, the spill handle and the FULL mapped output', async () => {
    const store = createMemoryEffectJournal();
    const big = 'x'.repeat(200_000);
    const spill = vi.fn(async (text: string) => ({ ref: '/spill/1.txt', byteLength: text.length }));
    const { tool, calls } = effectTool({ run: async () => ({ stdout: big, exitCode: 0 }) });
    const registry = createToolRegistry({ tools: [tool], host: { outputStore: { spill } } });
    const config = { outputMapping: { out: 'stdout' } };

    const first = await registry.dispatch(CALL, journalContext(store, { config }));
    const second = await registry.dispatch(CALL, journalContext(store, { config }));

    expect(calls).toHaveLength(1);
    expect(second.truncated).toBe(true);
    expect(second.spill).toMatchObject({ ref: '/spill/1.txt' });
    expect(second.spill).toEqual(first.spill);
    expect(unwrapUntrusted(second.toolResult)).toEqual(unwrapUntrusted(first.toolResult));
    expect(second.output).toEqual({ out: big });
  });

  it('answers an operator resolution with the fixed result and never runs the effect', async () => {
    const store = createMemoryEffectJournal();
    const { tool, calls } = effectTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });
    await prepareOnly(store);
    await store.settle(await claimIdOf(store), operatorResolvedRecord('2026-12-01T00:00:00Z'));

    const outcome = await registry.dispatch(CALL, journalContext(store));

    expect(calls).toHaveLength(0);
    expect(unwrapUntrusted(outcome.toolResult).result).toBe(OPERATOR_RESOLVED_RESULT);
    expect(outcome.output).toBe(OPERATOR_RESOLVED_RESULT);
    expect(outcome.journal).toEqual({
      status: 'replayed',
      outputDropped: false,
      operatorResolved: true,
    });
  });

  it('refuses a record it cannot read as journal_record_invalid, running nothing', async () => {
    const store = createMemoryEffectJournal();
    const { tool, calls } = effectTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });
    await prepareOnly(store);
    await store.settle(await claimIdOf(store), { kind: 'from_the_future' });

    const attempt = registry.dispatch(CALL, journalContext(store));

    await expect(attempt).rejects.toMatchObject({ reason: 'journal_record_invalid' });
    expect(calls).toHaveLength(0);
  });
});

describe('journalBracket: unresolved and mismatched calls', () => {
  it('refuses a call whose host failed mid-effect as effect_unresolved, never re-running it', async () => {
    const store = createMemoryEffectJournal();
    let effects = 0;
    const { tool } = effectTool({
      run: async () => {
        effects += 1;
        throw new Error('connection reset after the write');
      },
    });
    const registry = createToolRegistry({ tools: [tool], host: {} });
    await expect(registry.dispatch(CALL, journalContext(store))).rejects.toBeInstanceOf(
      ToolExecutionError,
    );

    const attempt = registry.dispatch(CALL, journalContext(store));

    await expect(attempt).rejects.toBeInstanceOf(EffectJournalError);
    const error = await attempt.catch((caught: unknown) => caught as EffectJournalError);
    expect(error).toMatchObject({
      code: 'tool_failed',
      reason: 'effect_unresolved',
      retryable: false,
      recoverable: false,
      message: 'tool effect failed: effect_unresolved',
    });
    expect(classifyToolError(error)).toBe('fatal');
    expect(effects).toBe(1);
  });

  it('keeps the claim of a call cancelled mid-effect: it may have happened', async () => {
    const store = createMemoryEffectJournal();
    const controller = new AbortController();
    const { tool, calls } = effectTool({
      run: async () => {
        controller.abort();
        return 'landed';
      },
    });
    const registry = createToolRegistry({ tools: [tool], host: {} });
    await expect(
      registry.dispatch(CALL, journalContext(store, { signal: controller.signal })),
    ).rejects.toMatchObject({ code: 'cancelled' });

    const attempt = registry.dispatch(CALL, journalContext(store));

    await expect(attempt).rejects.toMatchObject({ reason: 'effect_unresolved' });
    expect(calls).toHaveLength(1);
  });

  it('refuses the same call id with other arguments as journal_identity_mismatch', async () => {
    const store = createMemoryEffectJournal();
    const { tool, calls } = effectTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });
    await registry.dispatch(CALL, journalContext(store));

    const attempt = registry.dispatch(
      { ...CALL, args: { text: 'goodbye' } },
      journalContext(store),
    );

    await expect(attempt).rejects.toMatchObject({
      reason: 'journal_identity_mismatch',
      message: 'tool effect failed: journal_identity_mismatch',
    });
    expect(classifyToolError(await attempt.catch((error: unknown) => error))).toBe('fatal');
    expect(calls).toHaveLength(1);
  });

  it('refuses the same call id naming another journaled tool as a mismatch', async () => {
    const store = createMemoryEffectJournal();
    const first = effectTool();
    const other = stubTool({ id: 'stub', policy: { os: true } });
    const registry = createToolRegistry({ tools: [first.tool, other.tool], host: {} });
    await registry.dispatch(CALL, journalContext(store));

    const attempt = registry.dispatch({ ...CALL, name: 'stub' }, journalContext(store));

    await expect(attempt).rejects.toMatchObject({ reason: 'journal_identity_mismatch' });
    expect(other.calls).toHaveLength(0);
  });

  it.each([
    ['a config-only value (a pinned cwd)', 'cwd'],
    ['a config-only credential', 'token'],
  ])('takes a changed %s for another identity, never a replay', async (_case, key) => {
    const store = createMemoryEffectJournal();
    const { tool, calls } = effectTool({ configOnlyParams: [key] });
    const registry = createToolRegistry({ tools: [tool], host: {} });
    const configured = (value: string) =>
      journalContext(store, { config: { parameters: { [key]: value } } });
    await registry.dispatch(CALL, configured('first-value'));

    const attempt = registry.dispatch(CALL, configured('second-value'));

    await expect(attempt).rejects.toMatchObject({ reason: 'journal_identity_mismatch' });
    expect(calls).toHaveLength(1);
  });

  it('hands the store a digest of the arguments, never a value', async () => {
    const { store, calls: journalCalls } = recordingJournal();
    const { tool } = effectTool({ configOnlyParams: ['token'], run: async () => 'ok' });
    const registry = createToolRegistry({ tools: [tool], host: {} });
    const secret = 'sk-live-0123456789abcdef';

    await registry.dispatch(
      { ...CALL, args: { text: 'model text' } },
      journalContext(store, { config: { parameters: { token: secret } } }),
    );

    const seen = JSON.stringify(journalCalls);
    expect(seen).not.toContain(secret);
    expect(seen).not.toContain('model text');
    expect(journalCalls[0]?.args[0]).toMatchObject({
      argsDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('refuses arguments with no canonical encoding before any effect', async () => {
    const { store, methods } = recordingJournal();
    const { tool, calls } = effectTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const attempt = registry.dispatch(
      { ...CALL, args: { nested: new Date(0) } },
      journalContext(store),
    );

    await expect(attempt).rejects.toMatchObject({ reason: 'journal_args_unencodable' });
    expect(calls).toHaveLength(0);
    expect(methods()).toEqual([]);
  });
});

describe('journalBracket: discarding a claim', () => {
  it('discards the claim when beforeDispatch refuses, so the call may run later', async () => {
    const { store, methods } = recordingJournal();
    const { tool, calls } = effectTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });
    const refuse = () => {
      throw new ToolPolicyError('effect', 'governed_block');
    };
    await expect(
      registry.dispatch(CALL, journalContext(store, { beforeDispatch: refuse })),
    ).rejects.toBeInstanceOf(ToolPolicyError);

    const outcome = await registry.dispatch(CALL, journalContext(store));

    expect(methods().slice(0, 3)).toEqual(['lookup', 'prepare', 'discard']);
    expect(calls).toHaveLength(1);
    expect(outcome.journal?.status).toBe('settled');
  });

  it('keeps the claim, unresolved, when that discard fails', async () => {
    const memory = createMemoryEffectJournal();
    const { store } = recordingJournal(memory, { discard: true });
    const { tool, calls } = effectTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });
    const refuse = () => {
      throw new Error('latch closed');
    };
    await expect(
      registry.dispatch(CALL, journalContext(store, { beforeDispatch: refuse })),
    ).rejects.toMatchObject({ reason: 'admission_refused' });

    const attempt = registry.dispatch(CALL, journalContext(memory));

    await expect(attempt).rejects.toMatchObject({ reason: 'effect_unresolved' });
    expect(calls).toHaveLength(0);
  });

  it('discards the claim when a cancel lands while preparing, before admission', async () => {
    const controller = new AbortController();
    const memory = createMemoryEffectJournal();
    const store: EffectJournal = {
      ...memory,
      prepare: async (key) => {
        const claimed = await memory.prepare(key);
        controller.abort();
        return claimed;
      },
    };
    const { tool, calls } = effectTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });
    const beforeDispatch = vi.fn();

    const attempt = registry.dispatch(
      CALL,
      journalContext(store, { signal: controller.signal, beforeDispatch }),
    );

    await expect(attempt).rejects.toMatchObject({ code: 'cancelled' });
    expect(beforeDispatch).not.toHaveBeenCalled();
    expect(calls).toHaveLength(0);
    expect(await memory.lookup(await keyOf(memory))).toEqual({ kind: 'absent' });
  });

  it.each([
    ['ToolPolicyError', () => new ToolPolicyError('effect', 'protected_path')],
    ['ToolArgsInvalidError', () => new ToolArgsInvalidError('effect', ['path'])],
    ['ToolUnavailableError', () => new ToolUnavailableError('effect', 'os')],
  ])(
    'discards the claim when the host marks a %s as refused before any effect',
    async (_name, make) => {
      const store = createMemoryEffectJournal();
      let attempts = 0;
      const { tool } = effectTool({
        run: async () => {
          attempts += 1;
          if (attempts === 1) throw refusedBeforeEffect(make());
          return 'second try';
        },
      });
      const registry = createToolRegistry({ tools: [tool], host: {} });
      await expect(registry.dispatch(CALL, journalContext(store))).rejects.toMatchObject({
        code: make().code,
      });

      const outcome = await registry.dispatch(CALL, journalContext(store));

      expect(unwrapUntrusted(outcome.toolResult).result).toBe('second try');
    },
  );

  it('discards after a shared arm re-stamped with the tool id: the mark rides along', async () => {
    const store = createMemoryEffectJournal();
    let attempts = 0;
    const { tool } = effectTool({
      run: async () => {
        attempts += 1;
        // The arm serves many tools and names its own id; callHost re-stamps it as `effect`.
        if (attempts === 1) throw refusedBeforeEffect(new ToolPolicyError('arm', 'ssrf_blocked'));
        return 'second try';
      },
    });
    const registry = createToolRegistry({ tools: [tool], host: {} });
    await expect(registry.dispatch(CALL, journalContext(store))).rejects.toMatchObject({
      toolId: 'effect',
      reason: 'ssrf_blocked',
    });

    const outcome = await registry.dispatch(CALL, journalContext(store));

    expect(unwrapUntrusted(outcome.toolResult).result).toBe('second try');
  });

  it.each([
    ['ToolPolicyError', () => new ToolPolicyError('effect', 'domain_not_allowed')],
    ['ToolArgsInvalidError', () => new ToolArgsInvalidError('effect', ['path'])],
    ['ToolUnavailableError', () => new ToolUnavailableError('effect', 'os')],
  ])(
    'keeps the claim when the host refuses with an unmarked %s: it may follow an effect',
    async (_name, make) => {
      const store = createMemoryEffectJournal();
      const { tool, calls } = effectTool({
        run: async () => {
          // As a redirect hop refused after the first request landed.
          throw make();
        },
      });
      const registry = createToolRegistry({ tools: [tool], host: {} });
      await expect(registry.dispatch(CALL, journalContext(store))).rejects.toMatchObject({
        code: make().code,
      });

      const attempt = registry.dispatch(CALL, journalContext(store));

      await expect(attempt).rejects.toMatchObject({ reason: 'effect_unresolved' });
      expect(calls).toHaveLength(1);
    },
  );

  it('keeps the claim when a marked refusal was made after the call was cancelled', async () => {
    const controller = new AbortController();
    const store = createMemoryEffectJournal();
    const { tool } = effectTool({
      run: async () => {
        controller.abort();
        throw refusedBeforeEffect(new ToolPolicyError('effect', 'protected_path'));
      },
    });
    const registry = createToolRegistry({ tools: [tool], host: {} });
    await expect(
      registry.dispatch(CALL, journalContext(store, { signal: controller.signal })),
    ).rejects.toMatchObject({ code: 'cancelled' });

    const attempt = registry.dispatch(CALL, journalContext(store));

    // The cancel wins and is a fresh error: unmarked, so the claim stays (the safe side).
    await expect(attempt).rejects.toMatchObject({ reason: 'effect_unresolved' });
  });

  it('discards the claim when a cancel lands after admission but before the host call', async () => {
    const controller = new AbortController();
    const store = createMemoryEffectJournal();
    const { tool, calls } = effectTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });
    const beforeDispatch = () => controller.abort();

    await expect(
      registry.dispatch(CALL, journalContext(store, { signal: controller.signal, beforeDispatch })),
    ).rejects.toMatchObject({ code: 'cancelled' });
    expect(calls).toHaveLength(0);

    const outcome = await registry.dispatch(CALL, journalContext(store));

    expect(calls).toHaveLength(1);
    expect(outcome.journal?.status).toBe('settled');
  });
});

describe('journalBracket: which calls are journaled', () => {
  it('does not journal a read: no lookup, no claim, no idempotency key', async () => {
    const { store, methods } = recordingJournal();
    let seen: ToolHostCallOptions | undefined;
    const { tool, calls } = stubTool({
      run: async (_args, _host, ctx) => {
        seen = ctx.hostCallOptions;
        return 'read';
      },
    });
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const first = await registry.dispatch({ ...CALL, name: 'stub' }, journalContext(store));
    await registry.dispatch({ ...CALL, name: 'stub' }, journalContext(store));

    expect(methods()).toEqual([]);
    expect(calls).toHaveLength(2);
    expect(first.journal).toBeUndefined();
    expect(seen?.idempotencyKey).toBeUndefined();
  });

  it('journals a read that declares journal: effect', async () => {
    const store = createMemoryEffectJournal();
    const { tool, calls } = stubTool({ policy: { journal: 'effect' } });
    const registry = createToolRegistry({ tools: [tool], host: {} });

    await registry.dispatch({ ...CALL, name: 'stub' }, journalContext(store));
    const second = await registry.dispatch({ ...CALL, name: 'stub' }, journalContext(store));

    expect(calls).toHaveLength(1);
    expect(second.journal?.status).toBe('replayed');
  });

  it('does not journal git_status, which declares journal: none', async () => {
    const { store, methods } = recordingJournal();
    const spawn = vi.fn(async () => ({ exitCode: 0, stdout: '', stderr: '', durationMs: 1 }));
    const registry = createToolRegistry({ tools: [gitStatusTool], host: { process: { spawn } } });
    const call = { id: 'call-1', name: 'git_status', args: {} };

    await registry.dispatch(call, journalContext(store));
    await registry.dispatch(call, journalContext(store));

    expect(spawn).toHaveBeenCalledTimes(2);
    expect(methods()).toEqual([]);
  });

  it('journals nothing without ctx.journal', async () => {
    const { tool, calls } = effectTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const outcome = await registry.dispatch(CALL, stubContext(['effect']));
    await registry.dispatch(CALL, stubContext(['effect']));

    expect(calls).toHaveLength(2);
    expect(outcome.journal).toBeUndefined();
  });
});

describe('journalBracket: after the effect', () => {
  it('refuses a journaled call that answers with media, keeping its claim', async () => {
    const store = createMemoryEffectJournal();
    const part = {
      type: 'media' as const,
      handle: `media://sha256-${'a'.repeat(64)}`,
      mimeType: 'image/png',
      sizeBytes: 3,
    };
    const { tool, calls } = effectTool({ run: async () => withMedia({ shown: true }, [part]) });
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const attempt = registry.dispatch(CALL, journalContext(store));
    await expect(attempt).rejects.toMatchObject({
      reason: 'journal_media_refused',
      retryable: false,
      recoverable: false,
    });
    const again = registry.dispatch(CALL, journalContext(store));

    await expect(again).rejects.toMatchObject({ reason: 'effect_unresolved' });
    expect(calls).toHaveLength(1);
  });

  it('returns the result when settle fails, and keeps the claim unresolved', async () => {
    const memory = createMemoryEffectJournal();
    const { store } = recordingJournal(memory, { settle: true });
    const { tool, calls } = effectTool({ run: async () => 'sent' });
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const outcome = await registry.dispatch(CALL, journalContext(store));
    const again = registry.dispatch(CALL, journalContext(memory));

    expect(unwrapUntrusted(outcome.toolResult).result).toBe('sent');
    expect(outcome.journal).toEqual({
      status: 'unsettled',
      outputDropped: false,
      operatorResolved: false,
    });
    await expect(again).rejects.toMatchObject({ reason: 'effect_unresolved' });
    expect(calls).toHaveLength(1);
  });

  it('over the record cap keeps the bounded result, drops the output and flags the replay', async () => {
    const store = createMemoryEffectJournal();
    const big = 'y'.repeat(100_000);
    const { tool, calls } = effectTool({ run: async () => ({ stdout: big }) });
    const registry = createToolRegistry({ tools: [tool], host: {} });
    const ctx = stubContext(['effect'], {
      journal: { store, runId: 'run-1', maxRecordBytes: 64 * 1024 },
      limits: { maxBytes: 1024, maxLines: 100 },
    });

    const first = await registry.dispatch(CALL, ctx);
    const second = await registry.dispatch(CALL, ctx);

    expect(calls).toHaveLength(1);
    expect(first.output).toEqual({ stdout: big });
    expect(first.journal).toEqual({
      status: 'settled',
      outputDropped: true,
      operatorResolved: false,
    });
    expect(second.journal).toEqual({
      status: 'replayed',
      outputDropped: true,
      operatorResolved: false,
    });
    const bounded = unwrapUntrusted(second.toolResult).result;
    expect(bounded).toEqual(unwrapUntrusted(first.toolResult).result);
    expect(second.output).toEqual(bounded);
  });

  it('never fails the call when even the bounded result is over the cap: the claim stays', async () => {
    const store = createMemoryEffectJournal();
    const { tool, calls } = effectTool({ run: async () => 'z'.repeat(500) });
    const registry = createToolRegistry({ tools: [tool], host: {} });
    const ctx = stubContext(['effect'], {
      journal: { store, runId: 'run-1', maxRecordBytes: 100 },
    });

    const outcome = await registry.dispatch(CALL, ctx);
    const again = registry.dispatch(CALL, ctx);

    expect(unwrapUntrusted(outcome.toolResult).result).toBe('z'.repeat(500));
    expect(outcome.journal?.status).toBe('unsettled');
    await expect(again).rejects.toMatchObject({ reason: 'effect_unresolved' });
    expect(calls).toHaveLength(1);
  });

  it('records an output with no exact JSON form as dropped, not as a lossy copy', async () => {
    const store = createMemoryEffectJournal();
    const { tool } = effectTool({
      run: async () => ({ at: new Date(0), stdout: 'w'.repeat(5000) }),
    });
    const registry = createToolRegistry({ tools: [tool], host: {} });
    const limits = { maxBytes: 1024, maxLines: 100 };

    const first = await registry.dispatch(CALL, journalContext(store, { limits }));
    const second = await registry.dispatch(CALL, journalContext(store, { limits }));

    expect(first.output).toMatchObject({ at: new Date(0) });
    expect(first.journal?.outputDropped).toBe(true);
    expect(second.output).toEqual(unwrapUntrusted(second.toolResult).result);
  });

  it('leaves the claim unresolved when the model-facing result itself has no JSON form', async () => {
    const store = createMemoryEffectJournal();
    const { tool, calls } = effectTool({ run: async () => ({ at: new Date(0) }) });
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const outcome = await registry.dispatch(CALL, journalContext(store));
    const again = registry.dispatch(CALL, journalContext(store));

    expect(outcome.journal?.status).toBe('unsettled');
    await expect(again).rejects.toMatchObject({ reason: 'effect_unresolved' });
    expect(calls).toHaveLength(1);
  });

  it('defaults the record cap to 8 MiB', () => {
    expect(DEFAULT_MAX_RECORD_BYTES).toBe(8 * 1024 * 1024);
  });
});

describe('journalBracket: the idempotency key', () => {
  it('hands the host a key derived from runId and the call id, keeping retainWork', async () => {
    const store = createMemoryEffectJournal();
    const seen: (ToolHostCallOptions | undefined)[] = [];
    const { tool } = effectTool({
      run: async (_args, _host, ctx) => {
        seen.push(ctx.hostCallOptions);
        return ctx.hostCallOptions?.retainWork?.(async () => 'retained');
      },
    });
    const registry = createToolRegistry({ tools: [tool], host: {} });
    let retained = 0;
    const retainWork = <T>(factory: () => Promise<T>): Promise<T> => {
      retained += 1;
      return factory();
    };

    const outcome = await registry.dispatch(
      CALL,
      journalContext(store, { hostCallOptions: { retainWork } }),
    );

    expect(seen[0]?.idempotencyKey).toBe(await effectIdempotencyKey('run-1', 'call-1'));
    expect(seen[0]?.idempotencyKey).toMatch(/^toolhost-[A-Za-z0-9_-]{43}$/);
    expect(retained).toBe(1);
    expect(unwrapUntrusted(outcome.toolResult).result).toBe('retained');
  });

  it('gives the same call the same key in every attempt, and each call its own', async () => {
    const seen: string[] = [];
    const { tool } = effectTool({
      run: async (_args, _host, ctx) => {
        seen.push(ctx.hostCallOptions?.idempotencyKey ?? 'none');
        return 'ok';
      },
    });
    const registry = createToolRegistry({ tools: [tool], host: {} });

    // Two fresh journals: the same call of the same run runs twice, as after an operator discard.
    await registry.dispatch(CALL, journalContext(createMemoryEffectJournal()));
    await registry.dispatch(CALL, journalContext(createMemoryEffectJournal()));
    await registry.dispatch({ ...CALL, id: 'call-2' }, journalContext(createMemoryEffectJournal()));
    await registry.dispatch(CALL, journalContext(createMemoryEffectJournal(), {}, 'run-2'));

    expect(seen[0]).toBe(seen[1]);
    expect(new Set(seen).size).toBe(3);
  });

  it('overrides a key the prepared context carried', async () => {
    const seen: string[] = [];
    const { tool } = effectTool({
      run: async (_args, _host, ctx) => {
        seen.push(ctx.hostCallOptions?.idempotencyKey ?? 'none');
        return 'ok';
      },
    });
    const registry = createToolRegistry({ tools: [tool], host: {} });

    await registry.dispatch(
      CALL,
      journalContext(createMemoryEffectJournal(), { hostCallOptions: { idempotencyKey: 'stale' } }),
    );

    expect(seen).toEqual([await effectIdempotencyKey('run-1', 'call-1')]);
  });
});

describe('journalBracket: failing closed before any effect', () => {
  it('refuses when the store cannot be read', async () => {
    const { store } = recordingJournal(undefined, { lookup: true });
    const { tool, calls } = effectTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const attempt = registry.dispatch(CALL, journalContext(store));

    await expect(attempt).rejects.toMatchObject({
      reason: 'journal_unavailable',
      message: 'tool effect failed: journal_unavailable',
    });
    expect(calls).toHaveLength(0);
  });

  it('refuses as effect_unresolved when another process won the race to prepare', async () => {
    const memory = createMemoryEffectJournal();
    const store: EffectJournal = {
      ...memory,
      prepare: async (key) => {
        // The rival's claim lands between this process's lookup and its prepare.
        await memory.prepare(key);
        return memory.prepare(key);
      },
    };
    const { tool, calls } = effectTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const attempt = registry.dispatch(CALL, journalContext(store));

    await expect(attempt).rejects.toMatchObject({ reason: 'effect_unresolved' });
    expect(calls).toHaveLength(0);
  });

  it('refuses when prepare fails and nothing was claimed', async () => {
    const { store } = recordingJournal(undefined, { prepare: true });
    const { tool, calls } = effectTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const attempt = registry.dispatch(CALL, journalContext(store));

    await expect(attempt).rejects.toMatchObject({ reason: 'journal_unavailable' });
    expect(calls).toHaveLength(0);
  });

  it('refuses when the runtime has no SHA-256 digest', async () => {
    vi.stubGlobal('crypto', undefined);
    vi.spyOn(process, 'getBuiltinModule').mockImplementation(() => undefined);
    const { store, methods } = recordingJournal();
    const { tool, calls } = effectTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const attempt = registry.dispatch(CALL, journalContext(store));

    await expect(attempt).rejects.toMatchObject({ reason: 'journal_unavailable' });
    expect(calls).toHaveLength(0);
    expect(methods()).toEqual([]);
  });

  it.each([
    ['an empty call id', { ...CALL, id: '' }, 'run-1'],
    ['an empty run id', CALL, ''],
  ])('refuses %s: two calls would share one identity', async (_case, call, runId) => {
    const { tool, calls } = effectTool();
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const attempt = registry.dispatch(call, journalContext(createMemoryEffectJournal(), {}, runId));

    await expect(attempt).rejects.toMatchObject({ reason: 'journal_unavailable' });
    expect(calls).toHaveLength(0);
  });
});

// A claim left prepared, as a crash between prepare and settle leaves it.
async function prepareOnly(store: EffectJournal): Promise<void> {
  await store.prepare(await keyOf(store));
}

// The key the bracket computes for CALL on an effect tool.
async function keyOf(_store: EffectJournal): Promise<EffectKey> {
  const argsDigest = await effectArgsDigest(CALL.args);
  return { runId: 'run-1', callKey: 'call-1', toolId: 'effect', argsDigest };
}

async function claimIdOf(store: EffectJournal): Promise<string> {
  const state = await store.lookup(await keyOf(store));
  if (state.kind !== 'prepared') throw new Error(`expected a prepared claim, got ${state.kind}`);
  return state.claimId;
}

describe('journalBracket: a hand-written parseArgs', () => {
  // A ToolDef not made by defineTool may hand the effective set back as its args: the identity
  // digest must still encode it (it inherits nothing, as a plain object's data does).
  it('journals a call whose parseArgs returns the effective argument set itself', async () => {
    const store = createMemoryEffectJournal();
    const { tool, calls } = effectTool({ run: async () => ({ sent: true }) });
    const identity = { ...tool, parseArgs: (raw: unknown) => raw };
    const registry = createToolRegistry({ tools: [identity], host: {} });

    const first = await registry.dispatch(CALL, journalContext(store));
    const second = await registry.dispatch(CALL, journalContext(store));

    expect(calls).toHaveLength(1);
    expect(first.journal?.status).toBe('settled');
    expect(second.journal?.status).toBe('replayed');
  });
});
