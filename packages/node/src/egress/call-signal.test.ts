import { describe, expect, it } from 'vitest';

import { CallSignal } from './call-signal.js';

describe('CallSignal', () => {
  it('keeps the first reason and emits abort once', () => {
    const signal = new CallSignal();
    let emitted = 0;
    signal.on('abort', () => (emitted += 1));

    signal.abort('first');
    signal.abort('second');

    expect(signal.reason).toBe('first');
    expect(emitted).toBe(1);
  });

  it('throws its reason once aborted', () => {
    const signal = new CallSignal();
    const reason = new Error('deadline');

    signal.abort(reason);

    expect(() => signal.throwIfAborted()).toThrow(reason);
  });
});
