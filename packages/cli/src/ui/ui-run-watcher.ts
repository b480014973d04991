import { randomUUID } from 'node:crypto';
import type { ToolRegistry } from '@toolhost/core';
import type { UiEventHub } from './ui-event-hub.js';
import type { UiSessionHandle, UiSessionTable } from './ui-session-table.js';
import { withUiEvents } from './with-ui-events.js';

/** Reports every served run to the control tower: its calls, its spills and its end. */
export interface UiRunWatcher {
  /** Wraps one run's registry (one per client session); the run becomes a session of the page. */
  wrap(registry: ToolRegistry): ToolRegistry;
  /** The run whose (wrapped) registry this is has closed; its spills went with it. */
  ended(registry: object): void;
  /** The page's session id of a wrapped registry: its approvals wait under the same id. */
  sessionIdOf(registry: object): string | undefined;
}

/**
 * Each wrapped registry is its own page session with a fresh id, so one client's spills are
 * listed and read only under that client's session. `spillDirectory` is where every run's spill
 * directory lives (`<stateDir>/spill`): a spill is never read from anywhere else.
 */
export function createUiRunWatcher(options: {
  readonly hub: UiEventHub;
  readonly sessions: UiSessionTable;
  readonly spillDirectory: string;
}): UiRunWatcher {
  const closers = new WeakMap<object, () => void>();
  const sessionIds = new WeakMap<object, string>();
  return {
    wrap(registry) {
      const sessionId = randomUUID();
      // Opened on the first call: a run no client ever calls through (serve --http's initial
      // one) is no session of the page.
      let handle: UiSessionHandle | undefined;
      const session = () => (handle ??= options.sessions.open(sessionId, options.spillDirectory));
      const wrapped = withUiEvents(registry, {
        hub: options.hub,
        sessionId,
        onDispatch: () => void session(),
        recordSpill: (spill) => session().recordSpill(spill),
      });
      closers.set(wrapped, () => handle?.close());
      sessionIds.set(wrapped, sessionId);
      return wrapped;
    },
    ended(registry) {
      closers.get(registry)?.();
      closers.delete(registry);
    },
    sessionIdOf: (registry) => sessionIds.get(registry),
  };
}
