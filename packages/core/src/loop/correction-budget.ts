/** The seed's loop-correction budget default: three rounds of fed-back failures per turn. */
export const DEFAULT_MAX_CORRECTIONS = 3;

/** Rounds of fed-back failures a turn may still spend; shared by every call of a turn. */
export interface CorrectionBudget {
  readonly max: number;
  readonly used: number;
  /**
   * Charges one round. Every call of the same round (same `round` key) shares one charge, so a
   * response with three bad calls costs one correction, not three. False once the budget is spent.
   */
  charge(round: unknown): boolean;
}

/** Creates a fresh budget for one turn. */
export function createCorrectionBudget(max: number = DEFAULT_MAX_CORRECTIONS): CorrectionBudget {
  if (!Number.isInteger(max) || max < 0) {
    throw new TypeError('toolhost: the correction budget must be a non-negative integer');
  }
  let used = 0;
  let lastRound: unknown = undefined;
  let charged = false;
  return {
    max,
    get used() {
      return used;
    },
    charge(round) {
      if (charged && Object.is(round, lastRound)) return true;
      if (used >= max) return false;
      used += 1;
      lastRound = round;
      charged = true;
      return true;
    },
  };
}
