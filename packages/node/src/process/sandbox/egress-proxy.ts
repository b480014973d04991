import type { Socket } from 'node:net';

import { ToolExecutionError, ToolPolicyError } from '@toolhost/core';

import { normalizeAllowlist } from '../../egress/check-egress-url.js';
import type { DialTcp } from '../../egress/create-pinned-dispatcher.js';
import { parseAddressRanges, type AddressRange } from '../../egress/is-global-unicast.js';
import {
  resolveDestination,
  type EgressLookup,
  type ResolvedDestination,
} from '../../egress/resolve-destination.js';
import {
  ProxyConnection,
  TunnelRefusal,
  type ConnectionEndCause,
  type ProxyConnectionLimits,
} from './egress-proxy-connection.js';
import type { EgressConnectionBudget } from './egress-connection-budget.js';
import type { SandboxEgressDecision, SandboxEgressReason } from './egress-proxy-decision.js';
import { dialChecked, dialDirect } from './egress-proxy-dial.js';
import {
  createSandboxGate,
  resolveConnectionCaps,
  type ConnectionCaps,
  type SandboxEgressGate,
} from './egress-proxy-gate.js';
import { scanProxyRequest } from './egress-proxy-head.js';
import { scanClientHello, serverNameMatches } from './egress-proxy-sni.js';

export type { SandboxEgressDecision, SandboxEgressReason } from './egress-proxy-decision.js';
export type { SandboxEgressGate } from './egress-proxy-gate.js';

/** `createSandboxEgressProxy` options. */
export interface SandboxEgressProxyOptions {
  /** Exact host names, normalised like the egress arm's allowlist; empty ⇒ every request denied. */
  readonly allowedDomains: readonly string[];
  /** Replaces system DNS (every A and AAAA answer), as in `EgressOptions`. */
  readonly lookup?: EgressLookup;
  /** CIDRs exempted from the SSRF floor, as in `EgressOptions`; for tests only. */
  readonly dangerouslyAllowRanges?: readonly string[];
  /** Opens TCP to a checked address, as in `EgressOptions`; tests point it at loopback. */
  readonly dialTcp?: DialTcp;
  /** Bytes forwarded in each direction of one tunnel. Default 256 MiB. */
  readonly maxBytesPerConnection?: number;
  /**
   * Silence (no byte either way) that ends a tunnel. Default 60 s. It also bounds, capped at
   * 20 s, the setup: request head, DNS, ClientHello and dial together.
   */
  readonly idleTimeoutMs?: number;
  /** Total lifetime of one connection. Default 10 min. */
  readonly maxConnectionMs?: number;
  /**
   * Connections one sandbox (one `openSandbox` gate) may hold open at once; past it a connection
   * is closed at accept. Default 256.
   */
  readonly maxConnectionsPerSandbox?: number;
  /** Connections every sandbox of this proxy may hold open together. Default 1 024. */
  readonly maxConnections?: number;
  /** A host's total shared with its other proxies, instead of one of `maxConnections` here. */
  readonly connectionBudget?: EgressConnectionBudget;
  /**
   * One event per connection: a denial at once, an allowed tunnel when it ends. Refusals at a
   * connection cap are summed (see `SandboxEgressDecision`).
   */
  readonly onDecision?: (event: SandboxEgressDecision) => void;
}

/** The host side of a sandbox's HTTP proxy. */
export interface SandboxEgressProxy {
  /** A gate for one more sandbox: its own connection cap, within the proxy's total. */
  openSandbox(): SandboxEgressGate;
  /** Serves one client connection as the proxy's one default sandbox (its own gate). */
  handleConnection(socket: Socket): void;
  /** The host's connection count this proxy takes from. */
  readonly connectionBudget: EgressConnectionBudget;
  /** Ends every open tunnel and refuses new connections; idempotent. */
  close(): Promise<void>;
}

interface ProxyPolicy extends ConnectionCaps {
  readonly allowedHosts: ReadonlySet<string>;
  readonly lookup: EgressLookup | undefined;
  readonly allowRanges: readonly AddressRange[];
  readonly dialTcp: DialTcp;
  readonly limits: ProxyConnectionLimits;
  readonly onDecision: ((event: SandboxEgressDecision) => void) | undefined;
}

/** Where a connection got to: what the event names, and whether the policy let it through. */
interface Progress {
  host: string;
  port: number;
  allowed: boolean;
}

// resolveDestination names a tool in its errors; these never leave the proxy.
const PROXY_TOOL_ID = 'sandbox_egress';
const MAX_SETUP_MS = 20_000;
const STATUS_LINES: Partial<Record<SandboxEgressReason, string>> = {
  bad_request: '400 Bad Request',
  insecure_url: '403 Forbidden',
  domain_not_allowed: '403 Forbidden',
  ssrf_blocked: '403 Forbidden',
  not_found: '502 Bad Gateway',
  network: '502 Bad Gateway',
};

/**
 * An HTTPS-only forward proxy with the egress arm's policy: exact allowed hosts, any port, the
 * SSRF floor on every DNS answer. Unlike proxies that match the name and let the OS resolve it
 * again, it dials only an address it checked (no DNS-rebinding window), and it opens the
 * upstream connection only after the client's ClientHello names the CONNECT host in its SNI, so
 * an allowed name cannot front for another site on the same address.
 */
export function createSandboxEgressProxy(options: SandboxEgressProxyOptions): SandboxEgressProxy {
  const policy = resolveProxyPolicy(options);
  const connections = new Set<ProxyConnection>();
  const gates = new Set<SandboxEgressGate>();
  let defaultGate: SandboxEgressGate | undefined;
  let closed = false;

  const serve = (socket: Socket, release: () => void): void => {
    const connection = new ProxyConnection(socket, policy.limits);
    connections.add(connection);
    const progress: Progress = { host: '', port: 0, allowed: false };
    void serveConnection(connection, progress, policy)
      .then(
        (cause) => finish(connection, progress, policy, cause),
        (error: unknown) => finish(connection, progress, policy, refusalCause(error)),
      )
      // A bug past this point must still neither crash the host nor leave a socket open.
      .catch(() => connection.abort())
      .then(() => connection.whenClosed())
      .finally(() => {
        connections.delete(connection);
        // Only now: the slot stands for the descriptors, so it is free once they are closed.
        release();
      });
  };

  const openSandbox = (): SandboxEgressGate => {
    const gate = createSandboxGate({
      ...policy,
      isClosed: () => closed,
      serve,
      report: (event) => report(policy, event),
      onClose: () => gates.delete(gate),
    });
    gates.add(gate);
    return gate;
  };

  return {
    openSandbox,
    handleConnection(socket) {
      defaultGate ??= openSandbox();
      defaultGate.handleConnection(socket);
    },
    connectionBudget: policy.budget,

    async close() {
      closed = true;
      for (const gate of [...gates]) gate.close();
      const open = [...connections];
      for (const connection of open) connection.abort('closed');
      await Promise.all(open.map((connection) => connection.whenClosed()));
    },
  };
}

/**
 * One connection, in the policy's order: parse, allowlist, resolve and check every answer,
 * establish, check the ClientHello's SNI, and only then dial a checked address. Resolves with
 * what ended an allowed tunnel early; a refusal throws `TunnelRefusal`.
 */
async function serveConnection(
  connection: ProxyConnection,
  progress: Progress,
  policy: ProxyPolicy,
): Promise<ConnectionEndCause | undefined> {
  const head = await connection.read(scanProxyRequest, Buffer.alloc(0), 'bad_request');
  const request = head.verdict;
  if (request.kind === 'bad_request') throw new TunnelRefusal('bad_request');
  progress.host = request.host ?? '';
  progress.port = request.port ?? 0;
  if (request.kind === 'insecure_url') throw new TunnelRefusal('insecure_url');
  if (!policy.allowedHosts.has(request.host)) throw new TunnelRefusal('domain_not_allowed');
  const destination = await resolveChecked(request.host, request.port, policy, connection.signal);

  connection.establish();
  const early = head.bytes.subarray(request.headLength);
  const hello = await connection.read(scanClientHello, early, 'not_tls');
  if (hello.verdict.kind === 'not_tls') throw new TunnelRefusal('not_tls');
  if (!serverNameMatches(hello.verdict.serverNames, destination.hostname)) {
    throw new TunnelRefusal('sni_mismatch');
  }
  progress.allowed = true;

  const upstream = await dialChecked(destination, policy.dialTcp, connection);
  return connection.pipe(upstream, hello.bytes);
}

/** Reports the connection's one event and releases what it still holds. */
function finish(
  connection: ProxyConnection,
  progress: Progress,
  policy: ProxyPolicy,
  cause: ConnectionEndCause | undefined,
): void {
  const reason = cause === 'closed' ? undefined : cause;
  if (progress.allowed) {
    connection.abort();
    report(policy, {
      host: progress.host,
      port: progress.port,
      outcome: 'allowed',
      ...(reason === undefined ? {} : { reason }),
      bytesUp: connection.bytesUp,
      bytesDown: connection.bytesDown,
      durationMs: Date.now() - connection.startedAt,
    });
    return;
  }
  // Nothing was decided for a connection the proxy's own shutdown cut short.
  if (reason === undefined) {
    connection.abort();
    return;
  }
  report(policy, { host: progress.host, port: progress.port, outcome: 'denied', reason });
  const status = STATUS_LINES[reason];
  if (status !== undefined && !connection.established) connection.refuse(status);
  else connection.abort(reason);
}

async function resolveChecked(
  host: string,
  port: number,
  policy: ProxyPolicy,
  signal: AbortSignal,
): Promise<ResolvedDestination> {
  try {
    return await resolveDestination(new URL(`https://${host}:${port}/`), {
      toolId: PROXY_TOOL_ID,
      lookup: policy.lookup,
      allowRanges: policy.allowRanges,
      signal,
    });
  } catch (error) {
    if (error instanceof TunnelRefusal) throw error;
    if (error instanceof ToolPolicyError && error.reason === 'ssrf_blocked') {
      throw new TunnelRefusal('ssrf_blocked');
    }
    if (error instanceof ToolExecutionError && error.reason === 'not_found') {
      throw new TunnelRefusal('not_found');
    }
    throw new TunnelRefusal('network');
  }
}

function refusalCause(error: unknown): ConnectionEndCause | undefined {
  // Anything else is a bug in the proxy; the connection still ends, as a network failure.
  return error instanceof TunnelRefusal ? error.endCause : 'network';
}

function report(policy: ProxyPolicy, event: SandboxEgressDecision): void {
  try {
    policy.onDecision?.(event);
  } catch {
    // An observer's failure must not take down the proxy or leave a socket open.
  }
}

/** Fills defaults and rejects bad options at creation, not on first connection. */
function resolveProxyPolicy(options: SandboxEgressProxyOptions): ProxyPolicy {
  const {
    maxBytesPerConnection = 256 * 1024 * 1024,
    idleTimeoutMs = 60_000,
    maxConnectionMs = 10 * 60_000,
    dangerouslyAllowRanges = [],
  } = options;
  const caps = resolveConnectionCaps(options);
  if (!(Number.isInteger(maxBytesPerConnection) && maxBytesPerConnection > 0)) {
    throw new TypeError(
      'toolhost: sandbox egress maxBytesPerConnection must be a positive integer',
    );
  }
  if (!(idleTimeoutMs > 0)) {
    throw new TypeError('toolhost: sandbox egress idleTimeoutMs must be positive');
  }
  if (!(maxConnectionMs > 0)) {
    throw new TypeError('toolhost: sandbox egress maxConnectionMs must be positive');
  }
  return {
    allowedHosts: normalizeAllowlist(options.allowedDomains),
    lookup: options.lookup,
    allowRanges: parseAddressRanges(dangerouslyAllowRanges),
    dialTcp: options.dialTcp ?? dialDirect,
    limits: {
      maxBytesPerConnection,
      idleTimeoutMs,
      maxConnectionMs,
      setupTimeoutMs: Math.min(idleTimeoutMs, MAX_SETUP_MS),
    },
    ...caps,
    onDecision: options.onDecision,
  };
}
