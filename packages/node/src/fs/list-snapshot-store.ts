import { randomBytes } from 'node:crypto';
import type { ListSnapshot } from './list-snapshot.js';

/** Bounds of one host's snapshots: how many, how many bytes in all, and for how long. */
export interface ListSnapshotLimits {
  readonly maxSnapshots: number;
  readonly maxBytes: number;
  /** Since the snapshot was last used: an agent paging on keeps it. */
  readonly ttlMs: number;
  readonly now: () => number;
}

export const DEFAULT_LIST_SNAPSHOT_LIMITS: ListSnapshotLimits = {
  maxSnapshots: 16,
  maxBytes: 64 * 1024 * 1024,
  ttlMs: 5 * 60 * 1000,
  now: () => Date.now(),
};

/** A host's snapshots behind listing cursors. */
export interface ListSnapshotStore {
  /** Keeps a snapshot under a new unguessable id; `undefined` when it alone exceeds the budget. */
  put(snapshot: ListSnapshot): string | undefined;
  /** The snapshot kept under `id` for this listing's binding, unless expired or evicted. */
  get(id: string, binding: string): ListSnapshot | undefined;
  readonly size: number;
}

interface Kept {
  readonly snapshot: ListSnapshot;
  expiresAt: number;
}

/**
 * Snapshots in least-recently-used order (a Map's insertion order, re-inserted on use): a new
 * one evicts the oldest until both bounds hold, and an expired one is dropped when met. Ids are
 * 128 random bits, so a cursor cannot name a snapshot it was not given; a snapshot answers only
 * the binding it was made for, so even a known id serves no other listing.
 */
export function createListSnapshotStore(
  limits: ListSnapshotLimits = DEFAULT_LIST_SNAPSHOT_LIMITS,
): ListSnapshotStore {
  const kept = new Map<string, Kept>();
  let bytes = 0;
  const drop = (id: string): void => {
    const entry = kept.get(id);
    if (entry === undefined) return;
    kept.delete(id);
    bytes -= entry.snapshot.bytes;
  };
  const dropExpired = (now: number): void => {
    for (const [id, entry] of kept) if (entry.expiresAt <= now) drop(id);
  };
  return {
    put(snapshot) {
      if (snapshot.bytes > limits.maxBytes || limits.maxSnapshots < 1) return undefined;
      const now = limits.now();
      dropExpired(now);
      for (const id of kept.keys()) {
        if (kept.size < limits.maxSnapshots && bytes + snapshot.bytes <= limits.maxBytes) break;
        drop(id);
      }
      const id = randomBytes(16).toString('base64url');
      kept.set(id, { snapshot, expiresAt: now + limits.ttlMs });
      bytes += snapshot.bytes;
      return id;
    },
    get(id, binding) {
      const entry = kept.get(id);
      if (entry === undefined) return undefined;
      const now = limits.now();
      if (entry.expiresAt <= now) {
        drop(id);
        return undefined;
      }
      if (entry.snapshot.binding !== binding) return undefined;
      kept.delete(id);
      entry.expiresAt = now + limits.ttlMs;
      kept.set(id, entry);
      return entry.snapshot;
    },
    get size() {
      return kept.size;
    },
  };
}
