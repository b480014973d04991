import { isIP, connect as netConnect, type Socket } from 'node:net';
import { rootCertificates } from 'node:tls';

import { buildConnector, Pool } from 'undici';

import { trackConnection } from './closing-connections.js';
import type { EgressAddress, ResolvedDestination } from './resolve-destination.js';

/** Where one TCP connection goes: an address the SSRF floor already accepted. */
export interface DialTarget {
  readonly address: string;
  readonly family: 4 | 6;
  readonly port: number;
  /** The name the certificate is checked against (absent for an IP-literal URL). */
  readonly servername?: string;
}

/**
 * Opens the raw TCP connection to a validated address. TLS (SNI, certificate verification
 * against the hostname) is always layered on top by the connector, so a dialler can move the
 * socket (tests send it to 127.0.0.1) but never weaken the handshake.
 */
export type DialTcp = (target: DialTarget) => Socket;

/** What `createPinnedDispatcher` needs. */
export interface PinnedDispatcherOptions {
  readonly destination: ResolvedDestination;
  /** Extra trusted certificates, added to Node's bundled roots. */
  readonly ca?: string | readonly string[] | undefined;
  readonly dialTcp?: DialTcp | undefined;
  /** Per-connection TLS handshake budget. */
  readonly connectTimeoutMs?: number | undefined;
}

/**
 * An undici Pool for one checked destination whose every connection dials only the validated
 * IPs, with SNI and certificate checks on the hostname. No DNS happens here — that is the point:
 * the name is never re-resolved between the check and the connect (DNS rebinding). Reused by
 * MCP network transports together with `resolveDestination`.
 */
export function createPinnedDispatcher(options: PinnedDispatcherOptions): Pool {
  const { destination, dialTcp = dialDirect } = options;
  if (destination.addresses.length === 0) {
    throw new TypeError('toolhost: a pinned dispatcher needs at least one checked address');
  }
  const isLiteral = destination.hostname.startsWith('[') || isIP(destination.hostname) !== 0;
  // An IP-literal URL sends no SNI (RFC 6066) and Node then checks the certificate against the
  // dialled IP, which is that same literal.
  const servername = isLiteral ? undefined : destination.hostname;
  const tlsConnect = buildConnector({
    ca: trustedCertificates(options.ca),
    timeout: options.connectTimeoutMs ?? 10_000,
  });

  const connect: buildConnector.connector = (_requested, callback) => {
    // Dial order is the resolver's; a TCP-level failure falls through to the next checked IP.
    const attempt = (index: number): void => {
      const target = destination.addresses[index] as EgressAddress;
      const dialTarget: DialTarget = {
        address: target.address,
        family: target.family,
        port: destination.port,
        ...(servername === undefined ? {} : { servername }),
      };
      let socket: Socket;
      try {
        socket = dialTcp(dialTarget);
      } catch (error) {
        callback(error as Error, null);
        return;
      }
      tlsConnect(
        {
          hostname: target.address,
          protocol: 'https:',
          port: String(destination.port),
          ...(servername === undefined ? {} : { servername }),
          httpSocket: socket,
        },
        (...result) => {
          const [error, tlsSocket] = result;
          if (error !== null && isDialError(error) && index + 1 < destination.addresses.length) {
            socket.destroy();
            attempt(index + 1);
            return;
          }
          // Both layers: the TLS socket is what undici destroys, the TCP one what holds the fd.
          if (error === null && tlsSocket != null) {
            trackConnection(pool, tlsSocket);
            trackConnection(pool, socket);
          }
          callback(...result);
        },
      );
    };
    attempt(0);
  };

  const origin = `https://${destination.hostname}:${destination.port}`;
  // `connect` runs only once the Pool dials, so it may name the Pool declared after it.
  const pool = new Pool(origin, { connect, allowH2: false });
  return pool;
}

function dialDirect(target: DialTarget): Socket {
  // An IP host: net.connect performs no lookup, so no lookup callback format is involved.
  return netConnect({ host: target.address, port: target.port, family: target.family });
}

function trustedCertificates(ca: string | readonly string[] | undefined): string[] | undefined {
  if (ca === undefined) return undefined;
  // Node's `ca` replaces the bundled roots; "extra" trusted certificates must add to them.
  return [...rootCertificates, ...(typeof ca === 'string' ? [ca] : ca)];
}

const DIAL_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function isDialError(error: Error): boolean {
  return DIAL_ERROR_CODES.has(String((error as { code?: unknown }).code));
}
