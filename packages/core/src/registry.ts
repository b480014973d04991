import type { ToolDispatchContext, ToolPreflight } from './dispatch-context.js';
import { compareCodeUnits } from './errors.js';
import { isCommandPinned } from './policy/pinned-process-tools.js';
import { dispatch, type RegistryState } from './dispatch/dispatch.js';
import { preflight } from './dispatch/preflight.js';
import type { RegisteredTool } from './dispatch/registered-tool.js';
import type { ToolCall, ToolDispatchOutcome } from './dispatch/tool-call.js';
import type { AnyToolDef, ToolId } from './tool-def.js';
import type { ToolHost } from './tool-host.js';
import { hasHostArm, hostArmOf, type ToolHostArm } from './tool-host-arm.js';

/** What a registry is built from: the catalog and the one host every dispatch runs against. */
export interface ToolRegistryOptions {
  readonly tools: readonly AnyToolDef[];
  readonly host: ToolHost;
}

/** The engine's tool registry: exact-id lookup and the guarded dispatch pipeline. */
export interface ToolRegistry {
  /** Runs one call through every guard; resolves only when the host call succeeded. */
  dispatch(call: ToolCall, ctx: ToolDispatchContext): Promise<ToolDispatchOutcome>;
  /**
   * Dispatch's checks before consent (steps 1–5) and the host's own judgement of the target
   * (`ToolHost.preflight`), synchronously, running no arm, guard, approval or `beforeDispatch`:
   * throws the typed error dispatch would, else returns the
   * governed class and the scrubbed preview `confirm` would get. An SDK asks its human after this.
   */
  preflight(call: ToolCall, ctx: ToolDispatchContext): ToolPreflight;
  /** The registered tool with exactly this id. */
  get(id: string): AnyToolDef | undefined;
  /** Every registered id, in UTF-16 code-unit order. */
  list(): readonly ToolId[];
  /**
   * The host arm the tool with this id needs and this registry's host lacks; `undefined` when
   * it has it, the tool needs none, or no tool has the id. Adapters refuse such a grant at
   * creation, before a model is shown a tool that can only fail `ToolUnavailableError`.
   */
  missingHostArm(id: string): ToolHostArm | undefined;
}

/**
 * Builds a registry. Performs no I/O and reads no ambient state; refuses a bad catalog here
 * rather than on first use. Registering a tool grants nothing: `ctx.grantedToolIds` does.
 */
export function createToolRegistry({ tools, host }: ToolRegistryOptions): ToolRegistry {
  // Refused here, not as a TypeError deep in the first dispatch (a JavaScript caller has no
  // compiler to say `host` is required).
  if (typeof host !== 'object' || host === null) {
    throw new TypeError('toolhost: createToolRegistry needs a host (`{}` when no tool uses one)');
  }
  const registered = new Map<string, RegisteredTool>();
  for (const def of tools) {
    assertRegistrable(def);
    if (registered.has(def.id)) throw new TypeError(`toolhost: duplicate tool id ${def.id}`);
    registered.set(def.id, Object.freeze({ def, configOnly: new Set(def.configOnlyParams ?? []) }));
  }
  const state: RegistryState = { tools: registered, host };
  const ids = Object.freeze([...registered.keys()].sort(compareCodeUnits));
  return Object.freeze({
    dispatch: (call: ToolCall, ctx: ToolDispatchContext) => dispatch(state, call, ctx),
    preflight: (call: ToolCall, ctx: ToolDispatchContext) => preflight(registered, host, call, ctx),
    get: (id: string) => (typeof id === 'string' ? registered.get(id)?.def : undefined),
    list: () => ids,
    missingHostArm: (id: string) => {
      const def = typeof id === 'string' ? registered.get(id)?.def : undefined;
      const arm = def === undefined ? undefined : hostArmOf(def);
      return arm === undefined || hasHostArm(host, arm) ? undefined : arm;
    },
  });
}

function assertRegistrable(def: AnyToolDef): void {
  if (typeof def.id !== 'string' || def.id === '') {
    throw new TypeError('toolhost: a tool id must be a non-empty string');
  }
  // An http tool's whole guardrail is its URL: without a target the allowlist would be skipped
  // (fail-open). Only the built-in `git_status` and `git_commit` objects may spawn without one:
  // they run a fixed git subcommand; any other process tool, a copy of those included, must name
  // its command so the allowlist sees it.
  if (def.policy.egress === 'http' && def.policyTarget === undefined) {
    throw new TypeError(`toolhost: http tool ${def.id} must declare a policyTarget`);
  }
  if (def.policy.spawnsProcess && def.policyTarget === undefined && !isCommandPinned(def)) {
    throw new TypeError(`toolhost: process tool ${def.id} must declare a policyTarget`);
  }
}
