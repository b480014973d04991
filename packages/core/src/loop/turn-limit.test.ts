import { describe, expect, it } from 'vitest';
import { createTurnLimit, DEFAULT_MAX_TOOL_TURNS } from './turn-limit.js';

describe('createTurnLimit', () => {
  it('allows sixteen turns by default', () => {
    const turns = createTurnLimit();
    let taken = 0;

    while (turns.take()) taken += 1;

    expect(taken).toBe(DEFAULT_MAX_TOOL_TURNS);
    expect(DEFAULT_MAX_TOOL_TURNS).toBe(16);
    expect(turns.exhausted).toBe(true);
  });

  it('takes nothing once exhausted', () => {
    const turns = createTurnLimit(1);
    turns.take();

    expect(turns.take()).toBe(false);
    expect(turns.used).toBe(1);
  });

  it.each([0, -3, 2.5])('rejects %s at creation', (max) => {
    expect(() => createTurnLimit(max)).toThrow(TypeError);
  });
});
