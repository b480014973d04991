import { describe, expect, it } from 'vitest';
import { CallerGoneError, createCallerPresence } from './caller-presence.js';

describe('createCallerPresence', () => {
  it('aborts the calls of a response that dropped unfinished, and only those', () => {
    const presence = createCallerPresence();
    const droppedResponse = presence.expect([1, 2]);
    presence.expect([3]);
    const beforeItsHandler = presence.signalFor(2);

    droppedResponse(false);

    expect(presence.signalFor(1).aborted).toBe(true);
    expect(presence.signalFor(1).reason).toBeInstanceOf(CallerGoneError);
    // Its handler starts only now: it still finds its caller gone.
    expect(beforeItsHandler.aborted).toBe(true);
    expect(presence.signalFor(2).aborted).toBe(true);
    expect(presence.signalFor(3).aborted).toBe(false);
  });

  it('aborts nothing when the response finished, and forgets its calls', () => {
    const presence = createCallerPresence();
    const answered = presence.expect(['a']);
    const signal = presence.signalFor('a');

    answered(true);

    expect(signal.aborted).toBe(false);
    expect(presence.signalFor('a')).not.toBe(signal);
  });

  it('leaves a reused id alone when the old response that carried it closes', () => {
    const presence = createCallerPresence();
    const old = presence.expect([7]);
    presence.done(7);
    presence.expect([7]);

    old(false);

    expect(presence.signalFor(7).aborted).toBe(false);
  });

  it('aborts every call, now and later, once the client left', () => {
    const presence = createCallerPresence();
    presence.expect([1]);
    const stdioCall = presence.signalFor('no response of its own');

    presence.leaveAll();

    expect(presence.signalFor(1).aborted).toBe(true);
    expect(stdioCall.aborted).toBe(true);
    expect(presence.signalFor('later').aborted).toBe(true);
    presence.expect([2]);
    expect(presence.signalFor(2).aborted).toBe(true);
  });
});
