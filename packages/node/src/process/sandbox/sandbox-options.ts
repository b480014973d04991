import type { DialTcp } from '../../egress/create-pinned-dispatcher.js';
import { checkConnectionCap, DEFAULT_MAX_CONNECTIONS } from './egress-connection-budget.js';
import type { EgressLookup } from '../../egress/resolve-destination.js';

/**
 * `required`: every child runs inside bubblewrap, and spawning fails closed when it cannot be.
 * `off`: children run on the host as before (knowingly; `doctor` and `serve` say so).
 */
export type SandboxMode = 'required' | 'off';

/** Exact host names a sandboxed program may reach over HTTPS, through the host's proxy. */
export interface SandboxNetworkOptions {
  readonly allowedDomains: readonly string[];
  /**
   * Proxy connections one sandboxed spawn may hold open at once; past it a connection is closed
   * at accept (`connection_limit`). Default 256, or `maxConnections` when lower.
   */
  readonly maxConnectionsPerSandbox?: number;
  /**
   * Proxy connections every sandbox of the host may hold open together (each holds a host
   * descriptor). Default 1 024. Host-wide: set on the process arm; an MCP server may not set it.
   */
  readonly maxConnections?: number;
}

/** What a sandboxed program may reach beyond the workspace (the arm's, or an MCP server's). */
export interface SandboxAllowance {
  /** Absent or no domains: no network at all (loopback inside the sandbox only). */
  readonly network?: SandboxNetworkOptions;
  /** Absolute host paths shown read-only (a toolchain home, a data directory). */
  readonly readOnlyPaths?: readonly string[];
  /** Absolute host paths shown read-write, with the write floor re-applied inside. */
  readonly readWritePaths?: readonly string[];
}

/** The egress arm's test seams, reused by the sandbox's proxy. */
export interface SandboxEgressSeams {
  readonly lookup?: EgressLookup;
  readonly dangerouslyAllowRanges?: readonly string[];
  readonly dialTcp?: DialTcp;
}

const MODES: readonly SandboxMode[] = ['required', 'off'];
const KERNEL_VIEWS = ['/proc', '/sys', '/dev'];

/** Checks an allowance at creation: absolute paths, string domains; throws a TypeError. */
export function checkSandboxAllowance(allowance: SandboxAllowance, label: string): void {
  const paths = [...(allowance.readOnlyPaths ?? []), ...(allowance.readWritePaths ?? [])];
  if (
    !paths.every(
      (entry) => typeof entry === 'string' && entry.startsWith('/') && !entry.includes('\0'),
    )
  ) {
    throw new TypeError(`toolhost: ${label} sandbox paths must be absolute`);
  }
  if (paths.some((entry) => entry === '/' || entry.split('/').includes('..'))) {
    throw new TypeError(`toolhost: ${label} sandbox paths may not be / or contain ..`);
  }
  // The sandbox's own kernel views: the host's /proc would show every host process's
  // environment, its /dev and /sys the machine.
  if (
    paths.some((entry) =>
      KERNEL_VIEWS.some((view) => entry === view || entry.startsWith(`${view}/`)),
    )
  ) {
    throw new TypeError(`toolhost: ${label} sandbox paths may not be under /proc, /sys or /dev`);
  }
  const domains = allowance.network?.allowedDomains;
  if (
    domains !== undefined &&
    !(Array.isArray(domains) && domains.every((d) => typeof d === 'string' && d !== ''))
  ) {
    throw new TypeError(`toolhost: ${label} network.allowedDomains must be non-empty strings`);
  }
  checkConnectionCaps(allowance.network, label);
}

/** Checks the network caps: positive integers, the per-sandbox one within the total. */
function checkConnectionCaps(network: SandboxNetworkOptions | undefined, label: string): void {
  const { maxConnectionsPerSandbox, maxConnections } = network ?? {};
  if (maxConnections !== undefined) {
    checkConnectionCap(maxConnections, `${label} network.maxConnections`);
  }
  if (maxConnectionsPerSandbox === undefined) return;
  checkConnectionCap(maxConnectionsPerSandbox, `${label} network.maxConnectionsPerSandbox`);
  // Past the total it would cap nothing; below it, a flood leaves room for another sandbox.
  if (maxConnectionsPerSandbox > (maxConnections ?? DEFAULT_MAX_CONNECTIONS)) {
    throw new TypeError(
      `toolhost: ${label} network.maxConnectionsPerSandbox must not exceed maxConnections`,
    );
  }
}

/** Checks a mode option; throws a TypeError naming the allowed values. */
export function checkSandboxMode(mode: unknown, label: string): asserts mode is SandboxMode {
  if (!MODES.includes(mode as SandboxMode)) {
    throw new TypeError(`toolhost: ${label} sandbox must be "required" or "off"`);
  }
}
