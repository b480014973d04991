import type { Socket } from 'node:net';

import type { Dispatcher } from 'undici';

// Each pinned pool's live connections, kept outside the Pool so the Pool stays undici's own type.
const connections = new WeakMap<Dispatcher, Set<Socket>>();

/** Records `socket` as one of `pool`'s connections until it emits `close`. */
export function trackConnection(pool: Dispatcher, socket: Socket): void {
  let live = connections.get(pool);
  if (live === undefined) {
    live = new Set();
    connections.set(pool, live);
  }
  const owned = live;
  owned.add(socket);
  socket.once('close', () => owned.delete(socket));
}

/**
 * Resolves once every connection of `pool` that is being torn down (destroyed, its `close` not
 * yet emitted) has emitted `close`. A request that failed or was aborted before its headers came back has had
 * its socket destroyed by undici, but `destroy()` does not end it: the spec's completion rule
 * waits for the native `close`. Sockets still open are pooled host infrastructure and are not
 * waited for; a neighbour's closing socket on the same pool may be, which costs at most its own
 * close.
 */
export async function closingConnections(pool: Dispatcher): Promise<void> {
  const live = connections.get(pool);
  if (live === undefined) return;
  // In the set means its `close` was not emitted yet (`socket.closed` turns true earlier, when
  // the handle is released, a tick before the event).
  const closing = [...live].filter((socket) => socket.destroyed);
  await Promise.all(
    closing.map((socket) => new Promise<void>((resolve) => socket.once('close', () => resolve()))),
  );
}
