import { describe, expect, it } from 'vitest';
import { createSearchPace } from './search-pace.js';

describe('createSearchPace', () => {
  it('is due ten milliseconds after its last turn, and a pause starts the count again', async () => {
    const pace = createSearchPace(undefined);
    const now = performance.now();

    expect(pace.due(now)).toBe(false);
    expect(pace.due(now + 10)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 15));
    expect(pace.due()).toBe(true);
    await pace.pause();
    expect(pace.due()).toBe(false);
  });

  it('throws the cancel error at a pause once the signal fired', async () => {
    const controller = new AbortController();
    const pace = createSearchPace(controller.signal);
    await pace.pause();

    controller.abort();
    await expect(pace.pause()).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('lets a turn run at a pause: an abort sent from that turn is seen', async () => {
    const controller = new AbortController();
    const pace = createSearchPace(controller.signal);
    setImmediate(() => controller.abort());

    await expect(pace.pause()).rejects.toMatchObject({ code: 'cancelled' });
  });
});
