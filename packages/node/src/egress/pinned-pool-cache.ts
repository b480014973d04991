import type { Pool } from 'undici';

import { createPinnedDispatcher } from './create-pinned-dispatcher.js';
import type { ResolvedEgressOptions } from './resolve-egress-options.js';
import type { ResolvedDestination } from './resolve-destination.js';

const MAX_POOLS = 32;

/**
 * Keeps one pinned Pool per (host, port, checked address set), so keep-alive survives across
 * calls while a changed DNS answer always gets a fresh, freshly pinned pool.
 */
export class PinnedPoolCache {
  readonly #pools = new Map<string, Pool>();

  constructor(private readonly options: ResolvedEgressOptions) {}

  /** The pool that dials exactly `destination.addresses`. */
  get(destination: ResolvedDestination): Pool {
    const addresses = destination.addresses.map(({ address }) => address).sort();
    const key = `${destination.hostname}|${destination.port}|${addresses.join(',')}`;
    let pool = this.#pools.get(key);
    if (pool === undefined) {
      pool = createPinnedDispatcher({
        destination,
        ca: this.options.ca,
        dialTcp: this.options.dialTcp,
      });
    }
    // Re-insert to mark it most recently used; the Map's first key is then the LRU one.
    this.#pools.delete(key);
    this.#pools.set(key, pool);
    if (this.#pools.size > MAX_POOLS) {
      const [oldestKey, oldest] = this.#pools.entries().next().value as [string, Pool];
      this.#pools.delete(oldestKey);
      // close() lets requests already on the pool finish.
      oldest.close().catch(() => undefined);
    }
    return pool;
  }

  /** Closes every pool; in-flight requests finish first. */
  async close(): Promise<void> {
    const pools = [...this.#pools.values()];
    this.#pools.clear();
    await Promise.all(pools.map((pool) => pool.close().catch(() => undefined)));
  }
}
