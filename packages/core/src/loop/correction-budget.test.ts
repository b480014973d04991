import { describe, expect, it } from 'vitest';
import { createCorrectionBudget, DEFAULT_MAX_CORRECTIONS } from './correction-budget.js';

describe('createCorrectionBudget', () => {
  it('defaults to three rounds', () => {
    expect(createCorrectionBudget().max).toBe(DEFAULT_MAX_CORRECTIONS);
    expect(DEFAULT_MAX_CORRECTIONS).toBe(3);
  });

  it('charges a round once however often it is charged', () => {
    const budget = createCorrectionBudget(2);
    const round = {};

    const charges = [budget.charge(round), budget.charge(round), budget.charge(round)];

    expect(charges).toEqual([true, true, true]);
    expect(budget.used).toBe(1);
  });

  it('refuses the round after the last one', () => {
    const budget = createCorrectionBudget(2);

    const charges = [budget.charge(1), budget.charge(2), budget.charge(3)];

    expect(charges).toEqual([true, true, false]);
    expect(budget.used).toBe(2);
  });

  it('refuses every round when the budget is zero', () => {
    expect(createCorrectionBudget(0).charge('r')).toBe(false);
  });

  it.each([-1, 1.5, Number.NaN])('rejects %s at creation', (max) => {
    expect(() => createCorrectionBudget(max)).toThrow(TypeError);
  });
});
