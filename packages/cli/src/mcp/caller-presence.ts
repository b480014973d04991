/** A JSON-RPC request id as the SDK hands it to a handler. */
export type RequestId = string | number;

/**
 * Whether the callers of one served session can still receive their calls' answers. A call whose
 * caller is gone must not stay approvable: approving it would run what its client was told (or
 * will assume) failed. The signal a call gets aborts when its caller left; the approval waiting
 * on it is withdrawn.
 */
export interface CallerPresence {
  /**
   * The `tools/call` requests one HTTP response will answer arrived. Returns what to call once
   * that response closed: `finished` false means it closed before every answer was written, so
   * the calls of it still running lost their caller.
   */
  expect(requestIds: readonly RequestId[]): (finished: boolean) => void;
  /** The signal of one call: aborts once its caller is gone (its response, or the session). */
  signalFor(requestId: RequestId): AbortSignal;
  /** The call's handler ended: its answer was given (or nobody was waiting for it). */
  done(requestId: RequestId): void;
  /** The session's client left (closed, hung up, stdin ended): every call lost its caller. */
  leaveAll(): void;
}

/** The reason a gone caller's signal carries. */
export class CallerGoneError extends Error {
  override readonly name = 'CallerGoneError';
  constructor() {
    super('toolhost: the caller left before the call was answered');
  }
}

/** One session's presence; stdio uses only `signalFor`, `done` and `leaveAll`. */
export function createCallerPresence(): CallerPresence {
  const session = new AbortController();
  // Keyed by the request id as a string; the controller's identity tells a response's own call
  // from a later call that reused the id.
  const calls = new Map<string, AbortController>();
  return {
    expect(requestIds) {
      const own = requestIds.map((id) => {
        const controller = new AbortController();
        if (session.signal.aborted) controller.abort(session.signal.reason);
        calls.set(String(id), controller);
        return [String(id), controller] as const;
      });
      return (finished) => {
        for (const [id, controller] of own) {
          if (calls.get(id) !== controller) continue;
          // A dropped call stays listed, aborted, until its handler is done: the handler may
          // not have started yet and must still find its caller gone.
          if (finished) calls.delete(id);
          else controller.abort(new CallerGoneError());
        }
      };
    },
    signalFor(requestId) {
      return calls.get(String(requestId))?.signal ?? session.signal;
    },
    done(requestId) {
      calls.delete(String(requestId));
    },
    leaveAll() {
      if (session.signal.aborted) return;
      const reason = new CallerGoneError();
      session.abort(reason);
      for (const controller of calls.values()) controller.abort(reason);
      calls.clear();
    },
  };
}
