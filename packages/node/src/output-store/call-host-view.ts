import type { ToolHost, ToolResultLimits } from '@toolhost/core';
import type {
  AbortSignalLike,
  ProcessCapability,
  SpillPart,
  SpilledResult,
  ToolOutputStore,
} from '@toolhost/core/host';
import type { NodeOutputStore } from './create-output-store.js';
import type { SpillBudget } from './spill-quota.js';

/**
 * The host with `forCall`: each call gets a view of it whose every spill (the process output
 * it spawns, what it spills itself, its bounded result) is charged to one budget the view holds,
 * whether or not the tool passes any call options. Held, not found through the async context:
 * a read that spills nothing never enters an `AsyncLocalStorage` (on Node 20 that would make
 * every later promise of the process pay for context tracking).
 */
export function withCallHostViews(host: ToolHost, store: NodeOutputStore): ToolHost {
  const base: ToolHost = { ...host, outputStore: store, forCall: openCallView };
  // A method of whichever host it is called on: a copy of this host with an arm wrapped (the
  // CLI's progress-reporting process arm) gives each call a view of that copy.
  function openCallView(this: ToolHost | void): ToolHost {
    const from = this ?? base;
    const scope = new CallScope(store);
    // One copy, then plain writes: conditional spreads built and copied a temporary per arm on
    // every dispatch.
    const view: Mutable<ToolHost> = { ...from };
    // A store put in place of this one (or none) keeps its own accounting.
    if (from.outputStore === store) view.outputStore = new CallOutputStore(store, scope);
    if (from.process !== undefined) view.process = callProcess(from.process, scope);
    // Inside a call, a nested view joins it: no way to a fresh budget from within.
    view.forCall = () => view;
    return Object.freeze(view);
  }
  return Object.freeze(base);
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

// The call's budget, opened on its first spill: a call that spills nothing allocates none.
class CallScope {
  readonly #store: NodeOutputStore;
  #budget: SpillBudget | undefined;

  constructor(store: NodeOutputStore) {
    this.#store = store;
  }

  budget(): SpillBudget {
    this.#budget ??= this.#store.quota.openBudget();
    return this.#budget;
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.#store.quota.runWithBudget(this.budget(), work);
  }
}

// The run's store, every spill charged to the call's budget.
class CallOutputStore implements ToolOutputStore {
  readonly #store: NodeOutputStore;
  readonly #scope: CallScope;

  constructor(store: NodeOutputStore, scope: CallScope) {
    this.#store = store;
    this.#scope = scope;
  }

  spill(text: string, limits: ToolResultLimits, signal?: AbortSignalLike): Promise<SpilledResult> {
    return this.#store.spillCharged(this.#scope.budget(), [text], limits, signal);
  }

  spillParts(
    parts: readonly SpillPart[],
    limits: ToolResultLimits,
    signal?: AbortSignalLike,
  ): Promise<SpilledResult> {
    return this.#store.spillCharged(this.#scope.budget(), parts, limits, signal);
  }

  runCall<T>(work: () => Promise<T>): Promise<T> {
    return this.#scope.run(work);
  }
}

// Each spawn runs inside the call's budget (the only place the async context is entered): its
// stdout and stderr, and every other spawn of the same call, draw from it.
function callProcess(process: ProcessCapability, scope: CallScope): ProcessCapability {
  return {
    ...process,
    spawn: (command, args, declaredEnv, opts, signal) =>
      scope.run(() => process.spawn(command, args, declaredEnv, opts, signal)),
  };
}
