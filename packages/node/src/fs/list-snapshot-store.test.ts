import { describe, expect, it } from 'vitest';
import type { ListSnapshot } from './list-snapshot.js';
import { createListSnapshotStore, DEFAULT_LIST_SNAPSHOT_LIMITS } from './list-snapshot-store.js';

function snapshot(binding: string, bytes = 100): ListSnapshot {
  return {
    binding,
    start: { dev: 1, ino: 2 },
    directories: [{ segments: [], seen: { dev: 1, ino: 2 } }],
    names: ['a'],
    types: ['file'],
    directoryOf: [0],
    total: 1,
    totalExact: true,
    ignored: 0,
    bytes,
  };
}

describe('createListSnapshotStore', () => {
  it('answers an id only for the binding it was kept for', () => {
    const store = createListSnapshotStore();
    const kept = snapshot('one');
    const id = store.put(kept) ?? '';

    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(store.get(id, 'one')).toBe(kept);
    expect(store.get(id, 'two')).toBeUndefined();
    expect(store.get('A'.repeat(22), 'one')).toBeUndefined();
  });

  it('expires a snapshot ttl after its last use, and use extends it', () => {
    let now = 0;
    const store = createListSnapshotStore({
      ...DEFAULT_LIST_SNAPSHOT_LIMITS,
      ttlMs: 10,
      now: () => now,
    });
    const id = store.put(snapshot('b')) ?? '';

    now = 9;
    expect(store.get(id, 'b')).toBeDefined();
    now = 18;
    expect(store.get(id, 'b')).toBeDefined();
    now = 28;
    expect(store.get(id, 'b')).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('evicts the least recently used past the count or the byte budget, and refuses one too big alone', () => {
    const store = createListSnapshotStore({
      ...DEFAULT_LIST_SNAPSHOT_LIMITS,
      maxSnapshots: 2,
      maxBytes: 250,
    });
    const first = store.put(snapshot('b')) ?? '';
    const second = store.put(snapshot('b')) ?? '';
    store.get(first, 'b');
    const third = store.put(snapshot('b')) ?? '';

    expect(store.get(second, 'b')).toBeUndefined();
    expect(store.get(first, 'b')).toBeDefined();
    expect(store.get(third, 'b')).toBeDefined();

    const big = store.put(snapshot('b', 200)) ?? '';
    expect(store.size).toBe(1);
    expect(store.get(big, 'b')).toBeDefined();
    expect(store.put(snapshot('b', 251))).toBeUndefined();
  });
});
