import type { Socket } from 'node:net';

import {
  checkConnectionCap,
  createEgressConnectionBudget,
  DEFAULT_MAX_CONNECTIONS_PER_SANDBOX,
  type EgressConnectionBudget,
} from './egress-connection-budget.js';
import type { SandboxEgressDecision } from './egress-proxy-decision.js';
import { createRefusalReporter } from './egress-proxy-refusals.js';

/** One sandbox's way into the proxy: its listener's connections, counted against its cap. */
export interface SandboxEgressGate {
  /** Serves one connection accepted on this sandbox's listener, or closes it past a cap. */
  handleConnection(socket: Socket): void;
  /** This sandbox's connections open now. */
  readonly openConnections: number;
  /** This sandbox's cap. */
  readonly maxConnections: number;
  /** Reports refusals still being summed; the gate's open connections run to their end. */
  close(): void;
}

/** The two connection caps of a proxy, resolved once. */
export interface ConnectionCaps {
  readonly maxConnectionsPerSandbox: number;
  readonly budget: EgressConnectionBudget;
}

/** What a gate needs from its proxy. */
export interface GateParts extends ConnectionCaps {
  /** True once the proxy is closed: every new connection is closed unserved. */
  readonly isClosed: () => boolean;
  /** Serves an admitted connection; `release` once every descriptor of it is closed. */
  readonly serve: (socket: Socket, release: () => void) => void;
  readonly report: (event: SandboxEgressDecision) => void;
  readonly onClose: () => void;
}

/**
 * A gate for one sandbox. Issue 34: every accepted connection holds a host descriptor, so one
 * past either cap is closed at accept and counted, never served; the sandbox's own cap is below
 * the host's total, so one sandbox's flood leaves the rest of the total to the others.
 */
export function createSandboxGate(parts: GateParts): SandboxEgressGate {
  const { maxConnectionsPerSandbox, budget } = parts;
  const refusals = createRefusalReporter(parts.report);
  let open = 0;

  return {
    handleConnection(socket) {
      socket.on('error', () => undefined);
      if (parts.isClosed()) {
        socket.destroy();
        return;
      }
      // The sandbox's own cap first, so a flood never takes a slot of the host's total that
      // another sandbox could have used.
      const limit =
        open >= maxConnectionsPerSandbox ? 'sandbox' : budget.tryTake() ? undefined : 'host';
      if (limit !== undefined) {
        // Closed at accept, before any timer or buffer: the refused descriptor goes at once.
        socket.destroy();
        refusals.count(limit);
        return;
      }
      open += 1;
      let released = false;
      const release = (): void => {
        // Once per connection, whatever path ended it: a leak would lower the cap for good.
        if (released) return;
        released = true;
        open -= 1;
        budget.give();
      };
      try {
        parts.serve(socket, release);
      } catch {
        // A bug in serving must neither keep the socket nor its slot.
        socket.destroy();
        release();
      }
    },
    get openConnections() {
      return open;
    },
    maxConnections: maxConnectionsPerSandbox,
    close() {
      refusals.close();
      parts.onClose();
    },
  };
}

/** Fills the caps' defaults and rejects bad values at creation, not on first connection. */
export function resolveConnectionCaps(options: {
  readonly maxConnectionsPerSandbox?: number;
  readonly maxConnections?: number;
  readonly connectionBudget?: EgressConnectionBudget;
}): ConnectionCaps {
  if (options.connectionBudget !== undefined && options.maxConnections !== undefined) {
    throw new TypeError(
      'toolhost: sandbox egress takes maxConnections or a shared connectionBudget, not both',
    );
  }
  const budget = options.connectionBudget ?? createEgressConnectionBudget(options.maxConnections);
  const {
    maxConnectionsPerSandbox = Math.min(DEFAULT_MAX_CONNECTIONS_PER_SANDBOX, budget.maxConnections),
  } = options;
  checkConnectionCap(maxConnectionsPerSandbox, 'sandbox egress maxConnectionsPerSandbox');
  // Past the total it would cap nothing; below it, a flood leaves room for another sandbox.
  if (maxConnectionsPerSandbox > budget.maxConnections) {
    throw new TypeError(
      'toolhost: sandbox egress maxConnectionsPerSandbox must not exceed maxConnections',
    );
  }
  return { maxConnectionsPerSandbox, budget };
}
