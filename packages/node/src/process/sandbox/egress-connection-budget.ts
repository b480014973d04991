/** Default cap of proxy connections one sandbox (one spawn's listener) may hold open at once. */
export const DEFAULT_MAX_CONNECTIONS_PER_SANDBOX = 256;
/** Default cap of proxy connections a host's sandboxes may hold open together. */
export const DEFAULT_MAX_CONNECTIONS = 1024;

/**
 * The host-wide count of open proxy connections, shared by every proxy of a host's sandboxes.
 * Each open connection holds at least one host descriptor, so this count bounds what a
 * sandboxed flood can take from the host (issue 34: three floods drove the host to EMFILE).
 */
export interface EgressConnectionBudget {
  readonly maxConnections: number;
  /** Connections open now, across every sandbox. */
  readonly open: number;
  /** Takes one slot; `false`, taking nothing, once `maxConnections` are open. */
  tryTake(): boolean;
  /** Gives back one slot `tryTake` gave; the caller gives each slot back exactly once. */
  give(): void;
}

/** A host's connection count, capped at `maxConnections` (a positive integer). */
export function createEgressConnectionBudget(
  maxConnections: number = DEFAULT_MAX_CONNECTIONS,
): EgressConnectionBudget {
  checkConnectionCap(maxConnections, 'sandbox egress maxConnections');
  let open = 0;
  return {
    maxConnections,
    get open() {
      return open;
    },
    tryTake() {
      if (open >= maxConnections) return false;
      open += 1;
      return true;
    },
    give() {
      // Never below zero: a stray give must not raise the cap for good (callers give once).
      if (open > 0) open -= 1;
    },
  };
}

/** Throws a TypeError unless `value` is a positive integer; `name` says which option. */
export function checkConnectionCap(value: unknown, name: string): void {
  if (!(typeof value === 'number' && Number.isInteger(value) && value > 0)) {
    throw new TypeError(`toolhost: ${name} must be a positive integer`);
  }
}
