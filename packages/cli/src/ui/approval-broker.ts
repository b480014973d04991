import { randomUUID } from 'node:crypto';
import type { ToolActionClass, ToolActionPreview } from '@toolhost/core';
import type { AbortSignalLike } from '@toolhost/core/host';
import type {
  ApprovalAnswer,
  ApprovalPrompt,
  ApprovalPrompter,
} from '../approval/approval-prompter.js';

/** One governed call waiting for the control tower (or the client's elicitation) to answer. */
export interface PendingApproval {
  /** `crypto.randomUUID()`: unguessable, so only the page that was shown it can answer it. */
  readonly id: string;
  /** The served run's session: the id its calls and spills carry on the page. */
  readonly sessionId: string;
  readonly toolId: string;
  readonly action: ToolActionClass;
  /** The REDACTED preview the prompter was given. */
  readonly preview: ToolActionPreview;
  readonly note?: string;
  /** Epoch ms. */
  readonly requestedAt: number;
  /** Epoch ms; when it passes, the call is denied. */
  readonly deadline: number;
}

/** The page's answer to one pending approval. */
export type PageDecision =
  | { readonly choice: 'once' }
  /** Approve this tool for the rest of this client session (ApprovalAnswer 'always_tool'). */
  | { readonly choice: 'session' }
  | { readonly choice: 'deny'; readonly reason?: string };

/** What the page's stream is told: an approval appeared, or it was settled and by whom. */
export type ApprovalChange =
  | { readonly kind: 'requested'; readonly approval: PendingApproval }
  | {
      readonly kind: 'settled';
      readonly id: string;
      readonly sessionId: string;
      readonly by: 'page' | 'elicitation' | 'timeout' | 'withdrawn' | 'cancelled';
      readonly outcome: 'approved' | 'denied';
    };

export interface ApprovalBrokerOptions {
  /** A pending approval nobody answers is denied after this. */
  readonly timeoutMs: number;
  readonly now?: () => number;
}

/**
 * The refusal of an approval no person gave: it timed out, its caller left (`withdrawn`), or the
 * control tower closed. Thrown by the broker's prompter (not an answer) so serve reports it as
 * `approval_timeout` / `approval_withdrawn`, never `user_rejected`.
 */
export class ApprovalUnansweredError extends Error {
  readonly code = 'approval_unanswered';
  override readonly name = 'ApprovalUnansweredError';
  constructor(readonly reason: 'timeout' | 'withdrawn' | 'closed') {
    super(UNANSWERED_MESSAGES[reason]);
  }
}

const UNANSWERED_MESSAGES = {
  timeout: 'timed out waiting for approval from the toolhost control tower',
  withdrawn: 'the client left before the approval was answered',
  closed: 'the toolhost control tower closed before the approval was answered',
} as const;

/** The longest deny reason the page may send on to the client's model. */
export const MAX_DENY_REASON_CHARS = 500;

const MAX_TIMER_MS = 2 ** 31 - 1;

const PAGE_DENY_DEFAULT = 'rejected in the toolhost control tower';

type Settle = (settlement: Settlement) => void;

type Settlement =
  | { readonly by: 'page' | 'elicitation'; readonly answer: ApprovalAnswer }
  | { readonly by: 'timeout' }
  | { readonly by: 'withdrawn' }
  | { readonly by: 'closed' }
  | { readonly by: 'cancelled'; readonly reason: unknown };

interface Entry {
  readonly approval: PendingApproval;
  readonly settle: Settle;
}

/**
 * The pending approvals of one `serve --ui`: each governed call that needs a human waits here for
 * the page, racing the client's elicitation when it has one. Every path out of a wait — an
 * answer, the timeout, a cancel, `close()` — settles it once and clears its timer.
 */
export class ApprovalBroker {
  readonly #timeoutMs: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry>();
  readonly #listeners = new Set<(change: ApprovalChange) => void>();
  #closed = false;

  constructor(options: ApprovalBrokerOptions) {
    // Past 2^31-1 ms a Node timer fires at once: refuse it rather than deny every call at once.
    if (!(options.timeoutMs > 0) || !(options.timeoutMs <= MAX_TIMER_MS)) {
      throw new TypeError('toolhost: the approval timeout must be positive and at most 2^31-1 ms');
    }
    this.#timeoutMs = options.timeoutMs;
    this.#now = options.now ?? Date.now;
  }

  /**
   * The prompter of one served client session: asks the page, and when the client can elicit,
   * races its elicitation prompter — the first answer wins, the other is withdrawn (its signal
   * aborted / the pending entry settled). `callerGone` aborts when the call's client can no
   * longer receive its answer: what waits is withdrawn, and a later ask is refused as withdrawn.
   */
  prompterFor(
    sessionId: string,
    elicitation?: ApprovalPrompter,
    callerGone?: AbortSignalLike,
  ): ApprovalPrompter {
    return {
      ask: (prompt, signal) => this.#ask(sessionId, prompt, signal, elicitation, callerGone),
    };
  }

  pending(): readonly PendingApproval[] {
    return [...this.#entries.values()].map((entry) => entry.approval);
  }

  /**
   * The page's answer. false when the id is unknown or already settled (a second click, a stale
   * page), or when `sessionId` is given and is not the approval's own session. A deny reason is
   * bounded (500 chars) and stripped of control characters.
   */
  decide(id: string, decision: PageDecision, sessionId?: string): boolean {
    const entry = typeof id === 'string' ? this.#entries.get(id) : undefined;
    if (entry === undefined) return false;
    // An answer given for one session never settles another session's call.
    if (sessionId !== undefined && entry.approval.sessionId !== sessionId) return false;
    const answer = toAnswer(decision);
    if (answer === undefined) return false;
    entry.settle({ by: 'page', answer });
    return true;
  }

  subscribe(listener: (change: ApprovalChange) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /**
   * Withdraws every approval `sessionId` has pending: its client left (the session closed, or
   * its connection dropped). Each call reports `approval_withdrawn`; a late page click finds
   * nothing. Returns how many were withdrawn.
   */
  withdrawSession(sessionId: string): number {
    let withdrawn = 0;
    for (const entry of [...this.#entries.values()]) {
      if (entry.approval.sessionId !== sessionId) continue;
      entry.settle({ by: 'withdrawn' });
      withdrawn += 1;
    }
    return withdrawn;
  }

  /** Denies everything still pending (server shutting down); later asks are denied at once. */
  close(): void {
    this.#closed = true;
    for (const entry of [...this.#entries.values()]) entry.settle({ by: 'closed' });
  }

  #ask(
    sessionId: string,
    prompt: ApprovalPrompt,
    signal: AbortSignalLike | undefined,
    elicitation: ApprovalPrompter | undefined,
    callerGone: AbortSignalLike | undefined,
  ): Promise<ApprovalAnswer> {
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    if (this.#closed) return Promise.reject(new ApprovalUnansweredError('closed'));
    // Its client left before it asked: never show the page a call nobody can hear the end of.
    if (callerGone?.aborted === true)
      return Promise.reject(new ApprovalUnansweredError('withdrawn'));
    const requestedAt = this.#now();
    const approval: PendingApproval = Object.freeze({
      id: randomUUID(),
      sessionId,
      toolId: prompt.toolId,
      action: prompt.action,
      preview: Object.freeze({ ...prompt.preview }),
      ...(prompt.note === undefined ? {} : { note: prompt.note }),
      requestedAt,
      deadline: requestedAt + this.#timeoutMs,
    });
    // Withdraws the elicitation when anything else settles first.
    const withdraw = new AbortController();
    return new Promise<ApprovalAnswer>((resolve, reject) => {
      let settled = false;
      const settle: Settle = (settlement) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        callerGone?.removeEventListener('abort', onGone);
        this.#entries.delete(approval.id);
        if (settlement.by !== 'elicitation') {
          withdraw.abort(settlement.by === 'cancelled' ? settlement.reason : withdrawnReason());
        }
        this.#emit({
          kind: 'settled',
          id: approval.id,
          sessionId,
          by: settlement.by === 'closed' ? 'withdrawn' : settlement.by,
          outcome:
            'answer' in settlement && settlement.answer.choice !== 'no' ? 'approved' : 'denied',
        });
        switch (settlement.by) {
          case 'page':
          case 'elicitation':
            // Named by where it was given: the audit log's `by`.
            resolve({ ...settlement.answer, by: settlement.by });
            return;
          case 'cancelled':
            reject(settlement.reason);
            return;
          case 'timeout':
          case 'withdrawn':
          case 'closed':
            reject(new ApprovalUnansweredError(settlement.by));
            return;
        }
      };
      const onAbort = () => settle({ by: 'cancelled', reason: signal?.reason });
      const onGone = () => settle({ by: 'withdrawn' });
      const timer = setTimeout(() => settle({ by: 'timeout' }), this.#timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      callerGone?.addEventListener('abort', onGone, { once: true });
      this.#entries.set(approval.id, { approval, settle });
      this.#emit({ kind: 'requested', approval });
      if (elicitation !== undefined) {
        // Its signal is the withdrawal: a cancel of the call withdraws it through `settle` too.
        Promise.resolve()
          .then(() =>
            // Settled already (a synchronous page answer): never send a request nobody awaits.
            settled ? undefined : elicitation.ask(prompt, withdraw.signal),
          )
          .then(
            (answer) => {
              if (answer !== undefined) settle({ by: 'elicitation', answer });
            },
            // A failed elicitation is no answer: the page still decides (or the timeout denies).
            () => undefined,
          );
      }
    });
  }

  #emit(change: ApprovalChange): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(change);
      } catch {
        // A broken subscriber (a closed stream) must not stall or skip an approval.
      }
    }
  }
}

function toAnswer(decision: PageDecision): ApprovalAnswer | undefined {
  switch (decision?.choice) {
    case 'once':
      return { choice: 'once' };
    case 'session':
      return { choice: 'always_tool' };
    case 'deny':
      return { choice: 'no', reason: boundDenyReason(decision.reason) };
    default:
      // Unknown means deny: the caller sent no decision the page offers, nothing is settled.
      return undefined;
  }
}

// Control characters, bidi and other invisible formatting: the reason reaches the client's model.
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/** A page's deny reason as the client's model may read it: printable, trimmed, bounded. */
export function boundDenyReason(reason: unknown): string {
  if (typeof reason !== 'string') return PAGE_DENY_DEFAULT;
  const printable = reason.replace(UNPRINTABLE, ' ').replace(/\s+/gu, ' ').trim();
  const bounded = Array.from(printable).slice(0, MAX_DENY_REASON_CHARS).join('').trim();
  return bounded === '' ? PAGE_DENY_DEFAULT : bounded;
}

function withdrawnReason(): Error {
  const error = new Error('toolhost: the approval was settled elsewhere');
  error.name = 'AbortError';
  return error;
}
