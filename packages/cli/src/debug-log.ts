import { debuglog, inspect } from 'node:util';

/**
 * The CLI's one debug logger: on under `NODE_DEBUG=toolhost`, silent otherwise. What it prints
 * may hold paths and values (a stack, a host error's message), so it is opt-in and goes to
 * stderr only; every message printed without it stays a fixed, secret-free template.
 */
export const debugLog = debuglog('toolhost');

/** Logs a caught error's stack and `cause` chain under `NODE_DEBUG=toolhost`; a no-op otherwise. */
export function debugError(context: string, error: unknown): void {
  // Checked first so an unwatched failure never pays for formatting a stack it will not print.
  if (!debugLog.enabled) return;
  // inspect prints the stack, every `[cause]`, an AggregateError's `[errors]` and own fields
  // (`code`, `syscall`); the depth reaches a cause chain several host layers deep.
  debugLog('%s: %s', context, inspect(error, { depth: 8 }));
}
