import type { SandboxEgressDecision } from './egress-proxy-decision.js';

/** Which cap refused a connection: the sandbox's own, or the host's total. */
export type ConnectionLimit = 'sandbox' | 'host';

/** Counts one sandbox's connection-limit refusals into few decision events. */
export interface RefusalReporter {
  /** One connection refused at `limit`. */
  count(limit: ConnectionLimit): void;
  /** Reports what is still counted and stops the window timer; idempotent. */
  close(): void;
}

/** How long refusals after a reported one are summed into one event. */
export const REFUSAL_WINDOW_MS = 1_000;

/**
 * A flood is thousands of refusals a second; one event each would move the flood onto the
 * observer (an audit log, a UI). So the first refusal is reported at once and the ones after it
 * are summed: at most one event per limit per window, each carrying `refusedConnections`, so the
 * events still add up to every refusal.
 */
export function createRefusalReporter(
  report: (event: SandboxEgressDecision) => void,
  windowMs: number = REFUSAL_WINDOW_MS,
): RefusalReporter {
  const pending = new Map<ConnectionLimit, number>();
  let window: NodeJS.Timeout | undefined;

  const flush = (): void => {
    for (const [limit, refused] of pending) emit(report, limit, refused);
    pending.clear();
  };
  const openWindow = (): void => {
    window = setTimeout(() => {
      window = undefined;
      if (pending.size === 0) return;
      flush();
      // A flood still going on gets the next summary a window later, not one per refusal.
      openWindow();
    }, windowMs);
    window.unref();
  };

  return {
    count(limit) {
      if (window === undefined) {
        emit(report, limit, 1);
        openWindow();
        return;
      }
      pending.set(limit, (pending.get(limit) ?? 0) + 1);
    },
    close() {
      clearTimeout(window);
      window = undefined;
      flush();
    },
  };
}

function emit(
  report: (event: SandboxEgressDecision) => void,
  limit: ConnectionLimit,
  refusedConnections: number,
): void {
  // Refused before a byte was read: no destination is known.
  report({
    host: '',
    port: 0,
    outcome: 'denied',
    reason: 'connection_limit',
    connectionLimit: limit,
    refusedConnections,
  });
}
