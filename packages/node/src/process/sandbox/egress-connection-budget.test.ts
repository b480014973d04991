import { describe, expect, it } from 'vitest';

import { createEgressConnectionBudget } from './egress-connection-budget.js';

describe('createEgressConnectionBudget', () => {
  it('gives out slots up to its cap and refuses past it, taking nothing', () => {
    const budget = createEgressConnectionBudget(2);

    const taken = [budget.tryTake(), budget.tryTake(), budget.tryTake()];

    expect(taken).toEqual([true, true, false]);
    expect(budget.open).toBe(2);
  });

  it('admits again once a slot is given back', () => {
    const budget = createEgressConnectionBudget(1);
    budget.tryTake();

    budget.give();

    expect(budget.tryTake()).toBe(true);
  });

  it('never counts below zero, so a stray give cannot raise the cap', () => {
    const budget = createEgressConnectionBudget(1);

    budget.give();

    expect([budget.tryTake(), budget.tryTake()]).toEqual([true, false]);
  });

  it('defaults to 1 024', () => {
    expect(createEgressConnectionBudget().maxConnections).toBe(1024);
  });

  it.each([0, -3, 2.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses a cap of %s', (value) => {
    expect(() => createEgressConnectionBudget(value)).toThrow(
      new TypeError('toolhost: sandbox egress maxConnections must be a positive integer'),
    );
  });
});
