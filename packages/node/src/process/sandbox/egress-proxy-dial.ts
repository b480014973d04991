import { connect as netConnect, isIP, type Socket } from 'node:net';

import type { DialTarget, DialTcp } from '../../egress/create-pinned-dispatcher.js';
import type { ResolvedDestination } from '../../egress/resolve-destination.js';
import { TunnelRefusal, type ProxyConnection } from './egress-proxy-connection.js';

/**
 * Opens TCP to the first checked address that accepts, in the resolver's order. Only addresses
 * the SSRF floor passed are dialled, never the name: nothing can re-resolve it in between.
 */
export async function dialChecked(
  destination: ResolvedDestination,
  dialTcp: DialTcp,
  connection: ProxyConnection,
): Promise<Socket> {
  const { hostname, port } = destination;
  const isLiteral = hostname.startsWith('[') || isIP(hostname) !== 0;
  for (const { address, family } of destination.addresses) {
    if (connection.ended) break;
    let socket: Socket;
    try {
      socket = dialTcp({ address, family, port, ...(isLiteral ? {} : { servername: hostname }) });
    } catch {
      continue;
    }
    connection.adopt(socket);
    if (await connected(socket)) return socket;
    socket.destroy();
  }
  throw new TunnelRefusal(connection.ended ? connection.endCause : 'network');
}

/** The default dialler: plain TCP to the checked IP. */
export function dialDirect(target: DialTarget): Socket {
  // An IP host: net.connect performs no lookup, so no resolver is consulted.
  return netConnect({ host: target.address, port: target.port, family: target.family });
}

function connected(socket: Socket): Promise<boolean> {
  // A dialler may hand back a socket that is already open (or already dead).
  if (!socket.connecting) return Promise.resolve(socket.readyState === 'open');
  return new Promise((resolve) => {
    const settle = (ok: boolean) => (): void => {
      socket.off('connect', onConnect);
      socket.off('close', onClose);
      resolve(ok);
    };
    const onConnect = settle(true);
    const onClose = settle(false);
    socket.once('connect', onConnect);
    socket.once('close', onClose);
  });
}
