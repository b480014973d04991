import { createCorrectionBudget, type CorrectionBudget } from '@toolhost/core';

/** One run's correction state: its budget and the model response its calls answer. */
export interface RunLedger {
  readonly budget: CorrectionBudget;
  /**
   * The model response the current calls answer. The SDK lists the tools (`isEnabled`) before
   * every model call, so a second listing of the same tool starts the next round: no usage
   * report is needed, and a model that reports none still spends its budget.
   */
  readonly round: number;
  /** Records that the SDK listed `toolName` for a model call. */
  listed(toolName: string): void;
  /** Charges one correction to `round` (default the current one); false once it is spent. */
  charge(round?: number): boolean;
  /** Calls whose failure the SDK fed back itself and this ledger already charged. */
  readonly chargedCalls: Set<string>;
  /** An error that must end the run before the next model call (a spent budget the SDK fed back). */
  pendingError: unknown;
}

/** The ledger of each run, keyed by the run context every call and hook of one run shares. */
export type RunLedgers = (runContext: object | undefined) => RunLedger;

/** Ledgers for one adapter: one per run context, each with a fresh budget of `maxCorrections`. */
export function createRunLedgers(maxCorrections: number): RunLedgers {
  const ledgers = new WeakMap<object, RunLedger>();
  return (runContext) => {
    // A call with no run context (a direct `invoke` in a test) gets a budget of its own.
    const key = runContext ?? {};
    let ledger = ledgers.get(key);
    if (ledger === undefined) {
      ledger = createRunLedger(maxCorrections);
      ledgers.set(key, ledger);
    }
    return ledger;
  };
}

function createRunLedger(maxCorrections: number): RunLedger {
  const budget = createCorrectionBudget(maxCorrections);
  let round = 0;
  let seen = new Set<string>();
  return {
    budget,
    get round() {
      return round;
    },
    listed(toolName) {
      if (seen.has(toolName)) {
        round += 1;
        seen = new Set();
      }
      seen.add(toolName);
    },
    charge: (charged = round) => budget.charge(charged),
    chargedCalls: new Set(),
    pendingError: undefined,
  };
}
