import { describe, expect, it } from 'vitest';

import { CallSignal } from './call-signal.js';
import { raceAbort } from './race-abort.js';

const never = (): Promise<never> => new Promise<never>(() => undefined);

describe('raceAbort', () => {
  it('settles with the promise when nothing aborts', async () => {
    await expect(raceAbort(Promise.resolve(7), new CallSignal())).resolves.toBe(7);
  });

  it('rejects with the reason as soon as a CallSignal aborts', async () => {
    const signal = new CallSignal();
    const raced = raceAbort(never(), signal);

    signal.abort(new Error('stop'));

    await expect(raced).rejects.toThrow('stop');
  });

  it('rejects at once for an AbortSignal that already aborted', async () => {
    const raced = raceAbort(never(), AbortSignal.abort(new Error('gone')));

    await expect(raced).rejects.toThrow('gone');
  });

  it('removes its listener once the promise settles', async () => {
    const signal = new CallSignal();

    await raceAbort(Promise.resolve(1), signal);

    expect(signal.listenerCount('abort')).toBe(0);
  });
});
