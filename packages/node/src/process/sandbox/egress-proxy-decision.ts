/** Why the sandbox egress proxy refused a connection, or why an allowed tunnel ended early. */
export type SandboxEgressReason =
  | 'domain_not_allowed'
  | 'ssrf_blocked'
  | 'not_found'
  | 'sni_mismatch'
  | 'not_tls'
  | 'insecure_url'
  | 'bad_request'
  | 'connection_limit'
  | 'byte_cap'
  | 'timeout'
  | 'network';

/**
 * One event per connection: a denial when it is decided, an allowed tunnel when it ends. It
 * carries the destination's host and port and nothing else the client sent. `host` is '' and
 * `port` 0 when the request never named a parseable destination. A connection is allowed once
 * its ClientHello passed the SNI check; a dial that then fails is an allowed tunnel ended by
 * `network`. A connection cut short by `close()` before any decision reports nothing.
 * Connections refused at a connection cap (`connection_limit`) are the exception: the first is
 * reported at once, the ones after it summed into at most one event per sandbox and cap a second,
 * `refusedConnections` saying how many each event stands for.
 */
export interface SandboxEgressDecision {
  readonly host: string;
  readonly port: number;
  readonly outcome: 'allowed' | 'denied';
  /** For a denial, why; for an allowed tunnel, only when a cap, a timeout or the network ended it. */
  readonly reason?: SandboxEgressReason;
  readonly bytesUp?: number;
  readonly bytesDown?: number;
  readonly durationMs?: number;
  /** With `connection_limit`: the cap that refused, the sandbox's own or the host's total. */
  readonly connectionLimit?: 'sandbox' | 'host';
  /** With `connection_limit`: how many connections this event stands for (1 or more). */
  readonly refusedConnections?: number;
}
