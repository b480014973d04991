import { describe, expect, it } from 'vitest';

import { PinnedPoolCache } from './pinned-pool-cache.js';
import { resolveEgressOptions } from './resolve-egress-options.js';
import type { ResolvedDestination } from './resolve-destination.js';

const destination = (...addresses: string[]): ResolvedDestination => ({
  hostname: 'api.example.com',
  port: 443,
  addresses: addresses.map((address) => ({ address, family: 4 })),
});

describe('PinnedPoolCache', () => {
  it('reuses the pool for the same checked address set, in any order', async () => {
    const cache = new PinnedPoolCache(resolveEgressOptions({}));

    const first = cache.get(destination('93.184.215.14', '93.184.215.15'));
    const second = cache.get(destination('93.184.215.15', '93.184.215.14'));

    expect(second).toBe(first);
    await cache.close();
  });

  it('gives a changed DNS answer a fresh pool', async () => {
    const cache = new PinnedPoolCache(resolveEgressOptions({}));

    const first = cache.get(destination('93.184.215.14'));
    const second = cache.get(destination('93.184.215.99'));

    expect(second).not.toBe(first);
    await cache.close();
  });

  it('closes the least recently used pool past 32', async () => {
    const cache = new PinnedPoolCache(resolveEgressOptions({}));
    const oldest = cache.get(destination('93.184.215.1'));
    const kept = cache.get(destination('93.184.215.2'));

    cache.get(destination('93.184.215.2'));
    for (let index = 3; index <= 33; index += 1) cache.get(destination(`93.184.215.${index}`));

    expect(oldest.closed).toBe(true);
    expect(kept.closed).toBe(false);
    await cache.close();
    expect(kept.closed).toBe(true);
  });
});
