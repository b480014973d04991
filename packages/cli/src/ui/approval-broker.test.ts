import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  ApprovalAnswer,
  ApprovalPrompt,
  ApprovalPrompter,
} from '../approval/approval-prompter.js';
import {
  ApprovalBroker,
  ApprovalUnansweredError,
  MAX_DENY_REASON_CHARS,
  type ApprovalChange,
} from './approval-broker.js';

const PROMPT: ApprovalPrompt = {
  toolId: 'write_file',
  action: 'fs_write',
  preview: { path: 'notes.txt' },
};

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/u;

/** An elicitation prompter the test answers by hand, recording the signal it was given. */
function manualElicitation() {
  let answer: (value: ApprovalAnswer) => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  const seen: { signal?: AbortSignal | undefined } = {};
  const prompter: ApprovalPrompter = {
    ask: (_prompt, signal) => {
      seen.signal = signal as AbortSignal | undefined;
      return new Promise<ApprovalAnswer>((resolve, reject) => {
        answer = resolve;
        fail = reject;
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    },
  };
  return {
    prompter,
    seen,
    answer: (value: ApprovalAnswer) => answer(value),
    fail: (e: unknown) => fail(e),
  };
}

function record(broker: ApprovalBroker): ApprovalChange[] {
  const changes: ApprovalChange[] = [];
  broker.subscribe((change) => changes.push(change));
  return changes;
}

function onlyPending(broker: ApprovalBroker) {
  const [entry, ...rest] = broker.pending();
  expect(rest).toEqual([]);
  if (entry === undefined) throw new Error('nothing pending');
  return entry;
}

describe('ApprovalBroker', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lists a pending approval with the redacted preview, session and deadline', async () => {
    const broker = new ApprovalBroker({ timeoutMs: 60_000, now: () => 1_000 });
    const changes = record(broker);
    const ask = broker
      .prompterFor('s-1')
      .ask({ ...PROMPT, note: 'protected path: always asks' })
      .catch((error: unknown) => error);
    const entry = onlyPending(broker);
    expect(entry).toEqual({
      id: expect.stringMatching(UUID_V4),
      sessionId: 's-1',
      toolId: 'write_file',
      action: 'fs_write',
      preview: { path: 'notes.txt' },
      note: 'protected path: always asks',
      requestedAt: 1_000,
      deadline: 61_000,
    });
    expect(changes).toEqual([{ kind: 'requested', approval: entry }]);
    expect(Object.isFrozen(entry) && Object.isFrozen(entry.preview)).toBe(true);
    broker.close();
    await expect(ask).resolves.toBeInstanceOf(ApprovalUnansweredError);
  });

  it('maps once and session to the prompter answers once and always_tool', async () => {
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    const changes = record(broker);
    const once = broker.prompterFor('s').ask(PROMPT);
    expect(broker.decide(onlyPending(broker).id, { choice: 'once' })).toBe(true);
    await expect(once).resolves.toEqual({ choice: 'once', by: 'page' });
    const session = broker.prompterFor('s').ask(PROMPT);
    const { id } = onlyPending(broker);
    expect(broker.decide(id, { choice: 'session' })).toBe(true);
    await expect(session).resolves.toEqual({ choice: 'always_tool', by: 'page' });
    expect(changes.at(-1)).toEqual({
      kind: 'settled',
      id,
      sessionId: 's',
      by: 'page',
      outcome: 'approved',
    });
    expect(broker.pending()).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('denies with the reason, bounded and stripped of control characters', async () => {
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    const changes = record(broker);
    const ask = broker.prompterFor('s').ask(PROMPT);
    const { id } = onlyPending(broker);
    broker.decide(id, {
      choice: 'deny',
      reason: 'not\u0007 this\nfile\u001b[31m \u202Eplease\u0000',
    });
    await expect(ask).resolves.toEqual({
      choice: 'no',
      reason: 'not this file [31m please',
      by: 'page',
    });
    expect(changes.at(-1)).toMatchObject({ kind: 'settled', by: 'page', outcome: 'denied' });

    const long = broker.prompterFor('s').ask(PROMPT);
    broker.decide(onlyPending(broker).id, { choice: 'deny', reason: '😀'.repeat(900) });
    const answer = await long;
    expect(answer).toEqual({
      choice: 'no',
      reason: '😀'.repeat(MAX_DENY_REASON_CHARS),
      by: 'page',
    });

    const empty = broker.prompterFor('s').ask(PROMPT);
    broker.decide(onlyPending(broker).id, { choice: 'deny', reason: '\u0000\n ' });
    await expect(empty).resolves.toEqual({
      choice: 'no',
      reason: 'rejected in the toolhost control tower',
      by: 'page',
    });
    const none = broker.prompterFor('s').ask(PROMPT);
    broker.decide(onlyPending(broker).id, { choice: 'deny' });
    await expect(none).resolves.toEqual({
      choice: 'no',
      reason: 'rejected in the toolhost control tower',
      by: 'page',
    });
  });

  it("refuses a decision sent for another session's approval, which stays pending", async () => {
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    const ask = broker.prompterFor('session-a').ask(PROMPT);
    const { id } = onlyPending(broker);

    expect(broker.decide(id, { choice: 'once' }, 'session-b')).toBe(false);
    expect(broker.pending()).toHaveLength(1);
    expect(broker.decide(id, { choice: 'deny' }, 'session-a')).toBe(true);
    await expect(ask).resolves.toMatchObject({ choice: 'no', by: 'page' });
  });

  it('answers false for a second decision, an unknown id or an unknown choice', async () => {
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    const ask = broker.prompterFor('s').ask(PROMPT);
    const { id } = onlyPending(broker);
    expect(broker.decide('not-an-id', { choice: 'once' })).toBe(false);
    expect(broker.decide(id, { choice: 'maybe' } as never)).toBe(false);
    expect(broker.pending()).toHaveLength(1);
    expect(broker.decide(id, { choice: 'deny', reason: 'no' })).toBe(true);
    expect(broker.decide(id, { choice: 'once' })).toBe(false);
    await expect(ask).resolves.toEqual({ choice: 'no', reason: 'no', by: 'page' });
  });

  it('gives every pending approval its own unguessable id', async () => {
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    const asks = Array.from({ length: 50 }, () =>
      broker
        .prompterFor('s')
        .ask(PROMPT)
        .catch(() => undefined),
    );
    const ids = broker.pending().map((entry) => entry.id);
    expect(new Set(ids).size).toBe(50);
    for (const id of ids) expect(id).toMatch(UUID_V4);
    broker.close();
    await Promise.all(asks);
  });

  it('denies on timeout, not as an answer, and leaves no timer', async () => {
    const broker = new ApprovalBroker({ timeoutMs: 5_000 });
    const changes = record(broker);
    const ask = broker.prompterFor('s').ask(PROMPT);
    const settledAsk = ask.catch((error: unknown) => error);
    const { id } = onlyPending(broker);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(broker.pending()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    const error = await settledAsk;
    expect(error).toBeInstanceOf(ApprovalUnansweredError);
    expect(error).toMatchObject({ code: 'approval_unanswered', reason: 'timeout' });
    expect(changes.at(-1)).toEqual({
      kind: 'settled',
      id,
      sessionId: 's',
      by: 'timeout',
      outcome: 'denied',
    });
    expect(broker.decide(id, { choice: 'once' })).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('settles a cancelled call with the signal reason and withdraws its elicitation', async () => {
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    const changes = record(broker);
    const elicitation = manualElicitation();
    const controller = new AbortController();
    const ask = broker.prompterFor('s', elicitation.prompter).ask(PROMPT, controller.signal);
    const { id } = onlyPending(broker);
    await Promise.resolve();
    const reason = new Error('client cancelled');
    controller.abort(reason);
    await expect(ask).rejects.toBe(reason);
    expect(elicitation.seen.signal?.aborted).toBe(true);
    expect(changes.at(-1)).toMatchObject({
      kind: 'settled',
      id,
      by: 'cancelled',
      outcome: 'denied',
    });
    expect(broker.decide(id, { choice: 'once' })).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects an already-aborted call at once without listing it', async () => {
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(broker.prompterFor('s').ask(PROMPT, controller.signal)).rejects.toThrow('gone');
    expect(broker.pending()).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('lets the elicitation win: the page entry is settled and a later click is refused', async () => {
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    const changes = record(broker);
    const elicitation = manualElicitation();
    const ask = broker.prompterFor('s', elicitation.prompter).ask(PROMPT);
    const { id } = onlyPending(broker);
    await Promise.resolve();
    elicitation.answer({ choice: 'always_target' });
    await expect(ask).resolves.toEqual({ choice: 'always_target', by: 'elicitation' });
    expect(broker.pending()).toEqual([]);
    expect(changes.at(-1)).toEqual({
      kind: 'settled',
      id,
      sessionId: 's',
      by: 'elicitation',
      outcome: 'approved',
    });
    expect(broker.decide(id, { choice: 'deny' })).toBe(false);
    expect(elicitation.seen.signal?.aborted).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('lets the page win: the elicitation request is aborted and its late answer ignored', async () => {
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    const changes = record(broker);
    const elicitation = manualElicitation();
    const ask = broker.prompterFor('s', elicitation.prompter).ask(PROMPT);
    await Promise.resolve();
    expect(elicitation.seen.signal?.aborted).toBe(false);
    broker.decide(onlyPending(broker).id, { choice: 'deny', reason: 'from the page' });
    expect(elicitation.seen.signal?.aborted).toBe(true);
    elicitation.answer({ choice: 'once' });
    await expect(ask).resolves.toEqual({ choice: 'no', reason: 'from the page', by: 'page' });
    expect(changes.filter((change) => change.kind === 'settled')).toHaveLength(1);
  });

  it('never sends an elicitation for an approval the page settled at once', async () => {
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    broker.subscribe((change) => {
      if (change.kind === 'requested') broker.decide(change.approval.id, { choice: 'once' });
    });
    let asked = 0;
    const elicitation: ApprovalPrompter = {
      ask: () => {
        asked += 1;
        return Promise.resolve({ choice: 'no' });
      },
    };
    await expect(broker.prompterFor('s', elicitation).ask(PROMPT)).resolves.toEqual({
      choice: 'once',
      by: 'page',
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(asked).toBe(0);
  });

  it('keeps waiting on the page when the elicitation fails', async () => {
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    const elicitation = manualElicitation();
    const ask = broker.prompterFor('s', elicitation.prompter).ask(PROMPT);
    await Promise.resolve();
    elicitation.fail(new Error('client went away'));
    await vi.advanceTimersByTimeAsync(0);
    const { id } = onlyPending(broker);
    expect(broker.decide(id, { choice: 'once' })).toBe(true);
    await expect(ask).resolves.toEqual({ choice: 'once', by: 'page' });
  });

  it('withdraws only the pending approvals of a session whose client left', async () => {
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    const changes = record(broker);
    const elicitation = manualElicitation();
    const gone = broker
      .prompterFor('gone', elicitation.prompter)
      .ask(PROMPT)
      .catch((error: unknown) => error);
    const stays = broker.prompterFor('stays').ask(PROMPT);
    await Promise.resolve();
    const goneId = broker.pending().find((entry) => entry.sessionId === 'gone')?.id ?? '';

    expect(broker.withdrawSession('gone')).toBe(1);

    const error = await gone;
    expect(error).toBeInstanceOf(ApprovalUnansweredError);
    expect(error).toMatchObject({ reason: 'withdrawn' });
    expect(elicitation.seen.signal?.aborted).toBe(true);
    expect(changes.at(-1)).toMatchObject({ id: goneId, by: 'withdrawn', outcome: 'denied' });
    // A late click on the withdrawn card settles nothing; the other session still waits.
    expect(broker.decide(goneId, { choice: 'once' })).toBe(false);
    expect(broker.pending().map((entry) => entry.sessionId)).toEqual(['stays']);
    expect(broker.withdrawSession('gone')).toBe(0);
    const staysId = broker.pending()[0]?.id ?? '';
    expect(broker.decide(staysId, { choice: 'once' })).toBe(true);
    await expect(stays).resolves.toMatchObject({ choice: 'once' });
  });

  it("withdraws one call whose caller is gone, not its session's other call", async () => {
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    const changes = record(broker);
    const caller = new AbortController();
    const dropped = broker
      .prompterFor('s', undefined, caller.signal)
      .ask(PROMPT)
      .catch((error: unknown) => error);
    const kept = broker.prompterFor('s', undefined, new AbortController().signal).ask(PROMPT);
    const [droppedEntry, keptEntry] = broker.pending();

    caller.abort(new Error('its response dropped'));

    expect(await dropped).toMatchObject({ name: 'ApprovalUnansweredError', reason: 'withdrawn' });
    expect(changes.at(-1)).toMatchObject({ id: droppedEntry?.id, by: 'withdrawn' });
    expect(broker.decide(droppedEntry?.id ?? '', { choice: 'once' })).toBe(false);
    expect(broker.pending()).toEqual([keptEntry]);
    expect(broker.decide(keptEntry?.id ?? '', { choice: 'once' })).toBe(true);
    await expect(kept).resolves.toMatchObject({ choice: 'once' });
  });

  it('refuses an ask whose caller already left as withdrawn, never listing it', async () => {
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    const changes = record(broker);
    const caller = new AbortController();
    caller.abort(new Error('gone'));

    const error = await broker
      .prompterFor('s', undefined, caller.signal)
      .ask(PROMPT)
      .catch((reason: unknown) => reason);

    expect(error).toBeInstanceOf(ApprovalUnansweredError);
    expect(error).toMatchObject({ reason: 'withdrawn' });
    expect(changes).toEqual([]);
    expect(broker.pending()).toEqual([]);
  });

  it('denies everything pending on close, and every later ask at once', async () => {
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    const changes = record(broker);
    const elicitation = manualElicitation();
    const first = broker
      .prompterFor('a')
      .ask(PROMPT)
      .catch((error: unknown) => error);
    const second = broker
      .prompterFor('b', elicitation.prompter)
      .ask(PROMPT)
      .catch((error: unknown) => error);
    await Promise.resolve();
    broker.close();
    for (const error of [await first, await second]) {
      expect(error).toBeInstanceOf(ApprovalUnansweredError);
      expect(error).toMatchObject({ reason: 'closed' });
    }
    expect(elicitation.seen.signal?.aborted).toBe(true);
    expect(changes.filter((change) => change.kind === 'settled')).toEqual([
      expect.objectContaining({ sessionId: 'a', by: 'withdrawn', outcome: 'denied' }),
      expect.objectContaining({ sessionId: 'b', by: 'withdrawn', outcome: 'denied' }),
    ]);
    const later = broker.prompterFor('a').ask(PROMPT);
    await expect(later).rejects.toMatchObject({ reason: 'closed' });
    expect(broker.pending()).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('survives a throwing subscriber and stops telling one that unsubscribed', async () => {
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    broker.subscribe(() => {
      throw new Error('stream closed');
    });
    const changes: ApprovalChange[] = [];
    const unsubscribe = broker.subscribe((change) => changes.push(change));
    const ask = broker.prompterFor('s').ask(PROMPT);
    unsubscribe();
    broker.decide(onlyPending(broker).id, { choice: 'once' });
    await expect(ask).resolves.toEqual({ choice: 'once', by: 'page' });
    expect(changes.map((change) => change.kind)).toEqual(['requested']);
  });

  it('refuses a timeout that is not a positive timer length', () => {
    expect(() => new ApprovalBroker({ timeoutMs: 0 })).toThrow(TypeError);
    expect(() => new ApprovalBroker({ timeoutMs: Number.NaN })).toThrow(TypeError);
    expect(() => new ApprovalBroker({ timeoutMs: 2 ** 31 })).toThrow(TypeError);
    expect(() => new ApprovalBroker({ timeoutMs: 2 ** 31 - 1 })).not.toThrow();
  });
});
