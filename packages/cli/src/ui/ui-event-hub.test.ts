import { describe, expect, it } from 'vitest';
import { UiEventHub } from './ui-event-hub.js';

const called = { sessionId: 's', callId: 'c', toolId: 't', step: 'called' } as const;

describe('UiEventHub', () => {
  it('keeps only the last events up to its capacity, numbered in order', () => {
    const hub = new UiEventHub({ capacity: 3, now: () => 7 });

    for (let index = 0; index < 5; index += 1) hub.publish(called);

    expect(hub.recent().map((event) => event.seq)).toEqual([3, 4, 5]);
    expect(hub.recent(4).map((event) => event.seq)).toEqual([5]);
    expect(hub.recent()[0]?.at).toBe(7);
  });

  it('delivers to every subscriber and drops one that throws', () => {
    const hub = new UiEventHub();
    const seen: number[] = [];
    hub.subscribe(() => {
      throw new Error('a closed stream');
    });
    const stop = hub.subscribe((event) => seen.push(event.seq));

    hub.publish(called);
    stop();
    hub.publish(called);

    expect(seen).toEqual([1]);
    expect(hub.subscriberCount).toBe(0);
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new UiEventHub({ capacity: 0 })).toThrow(TypeError);
  });
});
