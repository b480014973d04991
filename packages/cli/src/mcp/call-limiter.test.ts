import { describe, expect, it } from 'vitest';
import { createCallLimiter } from './call-limiter.js';

describe('createCallLimiter', () => {
  it('runs up to the limit at once, then hands slots over in arrival order', async () => {
    const gate = createCallLimiter({ maxInFlight: 2, maxWaiting: 5 });
    const order: number[] = [];
    const first = await gate.acquire();
    const second = await gate.acquire();
    const waiters = [3, 4, 5].map((n) =>
      gate.acquire().then((release) => {
        order.push(n);
        return release;
      }),
    );

    expect(gate.inFlight).toBe(2);
    first?.();
    second?.();
    const [third, fourth] = await Promise.all(waiters.slice(0, 2));
    expect(order).toEqual([3, 4]);
    expect(gate.inFlight).toBe(2);
    third?.();
    fourth?.();
    (await waiters[2])?.();
    expect(order).toEqual([3, 4, 5]);
    expect(gate.inFlight).toBe(0);
  });

  it('refuses at once when the queue is full, holding nothing', async () => {
    const gate = createCallLimiter({ maxInFlight: 1, maxWaiting: 1 });
    const held = await gate.acquire();
    const queued = gate.acquire();

    await expect(gate.acquire()).resolves.toBeUndefined();
    held?.();
    const next = await queued;
    expect(gate.inFlight).toBe(1);
    next?.();
    expect(gate.inFlight).toBe(0);
  });

  it('drops a waiter whose signal aborts, so its turn passes to the next', async () => {
    const gate = createCallLimiter({ maxInFlight: 1, maxWaiting: 2 });
    const held = await gate.acquire();
    const controller = new AbortController();
    const cancelled = gate.acquire(controller.signal);
    const next = gate.acquire();

    controller.abort(new Error('client cancelled'));
    await expect(cancelled).rejects.toThrow('client cancelled');
    held?.();
    (await next)?.();
    expect(gate.inFlight).toBe(0);
  });

  it('refuses an already aborted call and counts a double release once', async () => {
    const gate = createCallLimiter({ maxInFlight: 1, maxWaiting: 0 });
    const controller = new AbortController();
    controller.abort();

    await expect(gate.acquire(controller.signal)).rejects.toBeDefined();
    const release = await gate.acquire();
    release?.();
    release?.();
    expect(gate.inFlight).toBe(0);
    await expect(gate.acquire()).resolves.toBeTypeOf('function');
  });

  it.each([
    [{ maxInFlight: 0, maxWaiting: 1 }],
    [{ maxInFlight: 1.5, maxWaiting: 1 }],
    [{ maxInFlight: 1, maxWaiting: -1 }],
    [{ maxInFlight: Number.NaN, maxWaiting: 1 }],
  ])('rejects the limits %j at creation', (limits) => {
    expect(() => createCallLimiter(limits)).toThrow(TypeError);
  });
});
