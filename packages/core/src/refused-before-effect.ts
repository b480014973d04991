import type { ToolDispatchError } from './tool-dispatch-error.js';

// A registered symbol, not a module-private one or a WeakSet: a host built against another copy
// of core (two installs in one tree) must mark errors this copy's bracket can read.
const REFUSED_BEFORE_EFFECT: unique symbol = Symbol.for('toolhost.refusedBeforeEffect');

/**
 * Marks `error` as thrown before the call's first side effect: nothing was written, spawned or
 * sent. Only such a failure lets the durable effect bracket discard its claim so the call may
 * run later; an unmarked one keeps the claim (a rerun is refused as `effect_unresolved`), because
 * a refusal may come after an effect started (a redirect hop after the first request landed).
 * Mark only at a point that provably precedes every effect; when unsure, don't. Returns `error`,
 * so `throw refusedBeforeEffect(new ToolPolicyError(…))` reads as one statement.
 *
 * The mark is a non-enumerable own property: never serialized, logged or spread. An error that
 * cannot take it (frozen) stays unmarked, which keeps the claim: the safe side.
 */
export function refusedBeforeEffect<E extends ToolDispatchError>(error: E): E {
  Reflect.defineProperty(error, REFUSED_BEFORE_EFFECT, { value: true });
  return error;
}

/** Whether `error` carries `refusedBeforeEffect`'s mark (from any copy of core). */
export function isRefusedBeforeEffect(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { readonly [REFUSED_BEFORE_EFFECT]?: unknown })[REFUSED_BEFORE_EFFECT] === true
  );
}
