import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** One HTTP client session: its MCP server, whether a call still runs, and its run's teardown. */
export interface HttpSession {
  readonly server: Server;
  /** A call whose work has not ended (a cancelled one counts until it has): never idle. */
  busy(): boolean;
  /**
   * One response will answer these `tools/call` requests; call the result when it closed, with
   * whether it finished (see `CallerPresence.expect`).
   */
  expectCalls(requestIds: readonly (string | number)[]): (finished: boolean) => void;
  /** Its client left: what its calls wait for is withdrawn now, before anything else ends. */
  leave(): void;
  /** Ends the session's run: sweeps its spills and media. */
  close(): Promise<void>;
}

/** What `track` needs of a response: the event that says it is over, however it ended. */
export interface ClosingResponse {
  once(event: 'close', listener: () => void): unknown;
  /** Still false at `close` when the connection dropped before the response was complete. */
  readonly writableFinished: boolean;
}

/** A session in the table, from its initialize until it ends. */
export interface HttpSessionEntry {
  readonly transport: StreamableHTTPServerTransport;
  readonly session: HttpSession;
}

/** The live sessions of one server, with idle expiry and eviction. */
export interface HttpSessionTable {
  /** The session a request's `mcp-session-id` names, if it is still live. */
  get(id: string): HttpSessionEntry | undefined;
  /**
   * Takes a place for a new session, first ending the session idle the longest when the table is
   * full; `false` when every place holds a session that is not idle (the caller answers 503).
   */
  reserve(): Promise<boolean>;
  /** Gives a reserved place back (the session could not be opened). */
  unreserve(): void;
  /** Fills a reserved place; the session ends on `end`, eviction, expiry or `closeAll`. */
  add(transport: StreamableHTTPServerTransport, session: HttpSession): HttpSessionEntry;
  /** Names an entry once the transport assigned its id. */
  bind(entry: HttpSessionEntry, id: string): void;
  /** Counts `response` as activity of the session until it closes. */
  track(entry: HttpSessionEntry, response: ClosingResponse): void;
  /** Closes the session's transport and sweeps its run; idempotent. */
  end(entry: HttpSessionEntry): Promise<void>;
  /** Ends every session (server shutdown) and refuses new places. */
  closeAll(): Promise<void>;
}

interface Slot extends HttpSessionEntry {
  id?: string;
  openRequests: number;
  lastActive: number;
  timer?: NodeJS.Timeout;
  ending?: Promise<void>;
  /** Its client left without a DELETE: ended as soon as no call of it runs. */
  gone?: true;
}

/** How often a session whose client left is looked at until its last call ended. */
const GONE_RECHECK_MS = 50;

/**
 * Sessions used to be freed only by DELETE, which neither the SDK's `Client.close()` nor the
 * Inspector sends, so the 33rd client was refused forever. A session is idle while no request of
 * it is open and no call of it runs; idle for `idleTimeoutMs` it ends. A session whose last open
 * response dropped before it was complete ends at once: its client left.
 */
export function createHttpSessionTable(options: {
  readonly maxSessions: number;
  readonly idleTimeoutMs: number;
  readonly now?: () => number;
}): HttpSessionTable {
  const { maxSessions, idleTimeoutMs, now = Date.now } = options;
  const slots = new Set<Slot>();
  const byId = new Map<string, Slot>();
  let reserved = 0;
  let closed = false;

  const isIdle = (slot: Slot): boolean => slot.openRequests === 0 && !slot.session.busy();

  const arm = (slot: Slot): void => {
    clearTimeout(slot.timer);
    // Unref'd: a pending expiry never keeps a finished process alive.
    slot.timer = setTimeout(() => {
      // A call still running (its client gone) keeps the session: look again a period later.
      if (isIdle(slot)) void end(slot);
      else if (slot.openRequests === 0) arm(slot);
    }, idleTimeoutMs).unref();
  };

  // Its pending approvals are withdrawn at once; the run is swept once no call of it still runs
  // (as on expiry: a run is not swept under a running call), looked at again every moment.
  const leaveThenEnd = (slot: Slot): void => {
    slot.gone = true;
    slot.session.leave();
    clearTimeout(slot.timer);
    const check = (): void => {
      if (!slot.session.busy()) void end(slot);
      else slot.timer = setTimeout(check, GONE_RECHECK_MS).unref();
    };
    check();
  };

  const end = (entry: HttpSessionEntry): Promise<void> => {
    const slot = entry as Slot;
    if (slot.ending !== undefined) return slot.ending;
    // First and synchronously: closing the transport aborts the session's calls, which would
    // report a pending approval as cancelled; its client left, so it is withdrawn.
    if (slot.gone === undefined) slot.session.leave();
    clearTimeout(slot.timer);
    slots.delete(slot);
    if (slot.id !== undefined) byId.delete(slot.id);
    // Deferred a tick so the transport's own `onclose` (which calls `end`) finds `ending` set.
    slot.ending = Promise.resolve()
      .then(async () => {
        try {
          await slot.transport.close();
        } finally {
          await slot.session.close();
        }
      })
      .catch(() => undefined);
    return slot.ending;
  };

  const oldestIdle = (): Slot | undefined => {
    let oldest: Slot | undefined;
    for (const slot of slots) {
      if (isIdle(slot) && (oldest === undefined || slot.lastActive < oldest.lastActive))
        oldest = slot;
    }
    return oldest;
  };

  return {
    get: (id) => byId.get(id),

    async reserve() {
      if (closed) return false;
      if (slots.size + reserved >= maxSessions) {
        const victim = oldestIdle();
        if (victim === undefined) return false;
        // Taken synchronously, before the sweep: a concurrent initialize cannot claim it too.
        const swept = end(victim);
        reserved += 1;
        await swept;
        return true;
      }
      reserved += 1;
      return true;
    },

    unreserve() {
      reserved = Math.max(0, reserved - 1);
    },

    add(transport, session) {
      reserved = Math.max(0, reserved - 1);
      const slot: Slot = { transport, session, openRequests: 0, lastActive: now() };
      slots.add(slot);
      // Opened during shutdown: ended at once rather than outliving the server.
      if (closed) void end(slot);
      else arm(slot);
      return slot;
    },

    bind(entry, id) {
      const slot = entry as Slot;
      if (slot.ending !== undefined) return;
      slot.id = id;
      byId.set(id, slot);
    },

    track(entry, response) {
      const slot = entry as Slot;
      slot.openRequests += 1;
      if (!slot.gone) clearTimeout(slot.timer);
      response.once('close', () => {
        slot.openRequests -= 1;
        slot.lastActive = now();
        if (slot.ending !== undefined || slot.gone || slot.openRequests > 0) return;
        // The client's last connection to us dropped mid-answer (a killed or exited client:
        // its GET stream and every POST go at once): it left without a DELETE, so it is gone
        // now rather than after the idle timeout. A live client keeps its GET stream (the SDK's
        // opens one after initialize) or finished its last request, and is not ended; one that
        // holds no stream and dropped a request gets 404 once its session ended, and starts anew.
        if (!response.writableFinished) leaveThenEnd(slot);
        else arm(slot);
      });
    },

    end,

    async closeAll() {
      closed = true;
      await Promise.all([...slots].map((slot) => end(slot)));
    },
  };
}
