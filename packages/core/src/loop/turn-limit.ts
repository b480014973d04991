/** The default number of model rounds a tool loop may run before it must stop. */
export const DEFAULT_MAX_TOOL_TURNS = 16;

/** Counts model rounds so a multi-round loop cannot spin forever on a looping model. */
export interface TurnLimit {
  readonly max: number;
  readonly used: number;
  /** True once every turn has been taken. */
  readonly exhausted: boolean;
  /** Takes one turn; false (and nothing taken) once the limit is reached. */
  take(): boolean;
}

/** Creates a turn counter: `while (turns.take()) { …one model call and its tool calls… }`. */
export function createTurnLimit(max: number = DEFAULT_MAX_TOOL_TURNS): TurnLimit {
  if (!Number.isInteger(max) || max < 1) {
    throw new TypeError('toolhost: the turn limit must be a positive integer');
  }
  let used = 0;
  return {
    max,
    get used() {
      return used;
    },
    get exhausted() {
      return used >= max;
    },
    take() {
      if (used >= max) return false;
      used += 1;
      return true;
    },
  };
}
