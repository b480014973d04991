import type { Socket } from 'node:net';

import type { SandboxEgressReason } from './egress-proxy-decision.js';

/** Why a connection ended: a reported reason, or `closed` when the proxy itself shut down. */
export type ConnectionEndCause = SandboxEgressReason | 'closed';

/** Per-connection caps, resolved once per proxy. */
export interface ProxyConnectionLimits {
  /** Bytes forwarded in each direction. */
  readonly maxBytesPerConnection: number;
  readonly idleTimeoutMs: number;
  readonly maxConnectionMs: number;
  /** From accept to the first byte piped: request head, DNS, ClientHello and dial together. */
  readonly setupTimeoutMs: number;
}

/** Ends one connection's handling early; never leaves the proxy. No cause: the client hung up. */
export class TunnelRefusal extends Error {
  override readonly name = 'TunnelRefusal';

  constructor(readonly endCause: ConnectionEndCause | undefined) {
    super(`sandbox egress connection ended: ${endCause ?? 'client_closed'}`);
  }
}

/** What `read` resolves with: the scanner's final verdict and every byte buffered so far. */
export interface ScannedBytes<T> {
  readonly verdict: T;
  readonly bytes: Buffer;
}

// Long enough for a refused client to read its status line before the socket is torn down.
const REFUSAL_LINGER_MS = 1_000;
const ESTABLISHED = 'HTTP/1.1 200 Connection Established\r\n\r\n';

/**
 * One accepted client connection: its sockets, timers and byte counts. Every early end goes
 * through `abort`, which destroys every socket the connection holds, so no path leaves an
 * upstream socket open after its client is gone.
 */
export class ProxyConnection {
  readonly startedAt = Date.now();
  readonly #client: Socket;
  readonly #limits: ProxyConnectionLimits;
  readonly #sockets = new Set<Socket>();
  readonly #controller = new AbortController();
  readonly #timers: NodeJS.Timeout[] = [];
  #ended = false;
  #endCause: ConnectionEndCause | undefined;
  #established = false;
  #bytesUp = 0;
  #bytesDown = 0;

  constructor(client: Socket, limits: ProxyConnectionLimits) {
    this.#client = client;
    this.#limits = limits;
    this.#track(client);
    this.#startTimer(limits.maxConnectionMs, 'timeout');
    this.#startTimer(limits.setupTimeoutMs, 'timeout');
  }

  /** Aborts with the connection: DNS answers for a client that is gone are not waited for. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get established(): boolean {
    return this.#established;
  }

  get bytesUp(): number {
    return this.#bytesUp;
  }

  get bytesDown(): number {
    return this.#bytesDown;
  }

  /**
   * Buffers client bytes onto `initial` until `scan` stops answering `incomplete`, then pauses
   * the client so no byte is lost before the next phase reads. The client leaving first rejects
   * with `endedReason` (or the abort's cause).
   */
  read<T extends { readonly kind: string }>(
    scan: (bytes: Buffer) => T,
    initial: Buffer,
    endedReason: SandboxEgressReason,
  ): Promise<ScannedBytes<Exclude<T, { readonly kind: 'incomplete' }>>> {
    const client = this.#client;
    return new Promise((resolve, reject) => {
      let bytes = initial;
      const stop = (): void => {
        client.off('data', onData);
        client.off('end', onEnded);
        client.off('close', onEnded);
      };
      const settle = (): boolean => {
        const verdict = scan(bytes);
        if (verdict.kind === 'incomplete') return false;
        client.pause();
        stop();
        resolve({ verdict: verdict as Exclude<T, { readonly kind: 'incomplete' }>, bytes });
        return true;
      };
      const onData = (chunk: Buffer): void => {
        bytes = bytes.length === 0 ? chunk : Buffer.concat([bytes, chunk]);
        settle();
      };
      const onEnded = (): void => {
        stop();
        reject(new TunnelRefusal(this.#endCause ?? endedReason));
      };
      if (settle()) return;
      if (this.#ended || client.destroyed || client.readableEnded) {
        onEnded();
        return;
      }
      client.on('data', onData);
      client.once('end', onEnded);
      client.once('close', onEnded);
      client.resume();
    });
  }

  /** Tells the client its tunnel is open; from here on a refusal can only close it. */
  establish(): void {
    this.#established = true;
    this.#client.write(ESTABLISHED);
  }

  /**
   * Sends a fixed status line and closes. The client's further bytes are read and dropped for a
   * moment first: closing a socket with unread input sends a reset that can destroy the answer.
   */
  refuse(status: string): void {
    const client = this.#client;
    this.#clearTimers();
    if (client.destroyed) return;
    client.on('data', () => undefined);
    client.resume();
    client.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    const linger = setTimeout(() => client.destroy(), REFUSAL_LINGER_MS);
    linger.unref();
    client.once('close', () => clearTimeout(linger));
  }

  /** The connection has ended: nothing new may be opened for it. */
  get ended(): boolean {
    return this.#ended;
  }

  /** What ended it, once `ended`. */
  get endCause(): ConnectionEndCause | undefined {
    return this.#endCause;
  }

  /** Holds an upstream socket so every end of the connection destroys it too. */
  adopt(socket: Socket): void {
    this.#track(socket);
    if (this.#ended) socket.destroy();
  }

  /**
   * Forwards `first` (the checked ClientHello) and then both directions until both sockets
   * close, counting bytes against the cap. Resolves with what ended it early, if anything.
   */
  async pipe(upstream: Socket, first: Buffer): Promise<ConnectionEndCause | undefined> {
    const client = this.#client;
    this.#clearTimers();
    this.#startTimer(this.#limits.maxConnectionMs - (Date.now() - this.startedAt), 'timeout');
    // Once one side has closed, whatever the other still holds has nowhere to go: its silence
    // then ends the tunnel without counting as a timeout.
    let draining = false;
    const idle = this.#startTimer(this.#limits.idleTimeoutMs, () =>
      draining ? undefined : 'timeout',
    );
    upstream.on('error', () => this.abort('network'));
    // A reset from the sandboxed program is its own doing, not a reason to report.
    client.on('error', () => this.abort());
    this.#relay(client, upstream, 'up', idle);
    this.#relay(upstream, client, 'down', idle);
    const drainAfterClose = (other: Socket) => (): void => {
      draining = true;
      if (!other.destroyed) other.end();
    };
    client.once('close', drainAfterClose(upstream));
    upstream.once('close', drainAfterClose(client));

    if (this.#count('up', first.length)) upstream.write(first);
    else this.abort('byte_cap');
    client.resume();
    // A client that left while the dial was under way has no 'close' left to fire.
    if (client.destroyed) this.abort();
    await Promise.all([closedOf(client), closedOf(upstream)]);
    this.#ended = true;
    this.#clearTimers();
    return this.#endCause;
  }

  /** Destroys every socket of the connection; the first cause given is the one kept. */
  abort(cause?: ConnectionEndCause): void {
    if (!this.#ended) {
      this.#ended = true;
      this.#endCause = cause;
      this.#controller.abort(new TunnelRefusal(cause));
    }
    this.#clearTimers();
    for (const socket of this.#sockets) socket.destroy();
  }

  /** Settles once every socket the connection opened has closed. */
  async whenClosed(): Promise<void> {
    await Promise.all([...this.#sockets].map(closedOf));
  }

  #relay(from: Socket, to: Socket, direction: 'up' | 'down', idle: NodeJS.Timeout): void {
    from.on('data', (chunk: Buffer) => {
      idle.refresh();
      if (!this.#count(direction, chunk.length)) {
        this.abort('byte_cap');
        return;
      }
      if (to.destroyed || to.writableEnded) return;
      if (!to.write(chunk)) {
        from.pause();
        to.once('drain', () => from.resume());
      }
    });
    from.once('end', () => {
      if (!to.destroyed) to.end();
    });
  }

  #count(direction: 'up' | 'down', length: number): boolean {
    const total = (direction === 'up' ? this.#bytesUp : this.#bytesDown) + length;
    // A chunk that would pass the cap is not forwarded at all.
    if (total > this.#limits.maxBytesPerConnection) return false;
    if (direction === 'up') this.#bytesUp = total;
    else this.#bytesDown = total;
    return true;
  }

  #track(socket: Socket): void {
    this.#sockets.add(socket);
    socket.once('close', () => this.#sockets.delete(socket));
    // No 'error' may go unhandled: it would crash the host process.
    socket.on('error', () => undefined);
  }

  #startTimer(
    delayMs: number,
    cause: ConnectionEndCause | (() => ConnectionEndCause | undefined),
  ): NodeJS.Timeout {
    const timer = setTimeout(
      () => this.abort(typeof cause === 'function' ? cause() : cause),
      Math.max(delayMs, 0),
    );
    timer.unref();
    this.#timers.push(timer);
    return timer;
  }

  #clearTimers(): void {
    for (const timer of this.#timers.splice(0)) clearTimeout(timer);
  }
}

function closedOf(socket: Socket): Promise<void> {
  if (socket.closed) return Promise.resolve();
  return new Promise((resolve) => socket.once('close', () => resolve()));
}
