import { describe, expect, it } from 'vitest';

import { CallSignal } from './call-signal.js';
import { ownedUntilSettled } from './owned-until-settled.js';

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

describe('ownedUntilSettled', () => {
  it('settles with the promise when nothing aborts', async () => {
    await expect(ownedUntilSettled(Promise.resolve(7), new CallSignal())).resolves.toBe(7);
  });

  it('rejects with the abort reason only once the work it cannot cancel has ended', async () => {
    const signal = new CallSignal();
    const work = deferred<number>();
    let settled = false;
    const owned = ownedUntilSettled(work.promise, signal).finally(() => {
      settled = true;
    });
    owned.catch(() => undefined);

    signal.abort(new Error('stop'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Still the call's: a DNS query or a media write does not stop because the caller left.
    expect(settled).toBe(false);
    work.resolve(1);

    await expect(owned).rejects.toThrow('stop');
  });

  it('reports the abort, not the work’s own failure, once the call was cancelled', async () => {
    const work = deferred<number>();
    const owned = ownedUntilSettled(work.promise, AbortSignal.abort(new Error('gone')));
    work.reject(new Error('ENOTFOUND'));

    await expect(owned).rejects.toThrow('gone');
  });

  it('passes the work’s failure through when nothing aborted', async () => {
    await expect(
      ownedUntilSettled(Promise.reject(new Error('ENOTFOUND')), new CallSignal()),
    ).rejects.toThrow('ENOTFOUND');
  });
});
