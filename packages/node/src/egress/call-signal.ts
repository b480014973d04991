import { EventEmitter } from 'node:events';

/**
 * One egress call's abort source: the caller's cancel and the call's total deadline in one
 * place. An EventEmitter rather than an AbortController because Node's EventTarget costs
 * microseconds per listener, paid at every await of every request; undici accepts either.
 */
export class CallSignal extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;
  /** The caller aborted: the call ends as a cancel, whatever else failed. */
  cancelled = false;
  /** The deadline fired first. */
  timedOut = false;

  /** Aborts once; later calls are ignored so the first cause wins. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }

  /** Throws the abort reason if the call is already over (before a new side effect starts). */
  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }
}

/** What `ownedUntilSettled` reads: a standard AbortSignal or a `CallSignal`. */
export type AbortSource = AbortSignal | CallSignal;
