import type { AbortSignalLike } from '../abort-signal-like.js';
import type {
  FsScopeTier,
  ToolApprovalContext,
  ToolDispatchContext,
  ToolPolicy,
  ToolResultLimits,
} from '../dispatch-context.js';
import { compareCodeUnits } from '../errors.js';
import type { AnyToolDef, ToolId } from '../tool-def.js';
import { DEFAULT_MAX_CORRECTIONS } from './correction-budget.js';
import type { LoopRegistry } from './loop-registry.js';
import { defaultRandomNonce, type RandomNonce } from './random-nonce.js';

/** The one options object every SDK adapter takes: the grant, per-tool config and the policy. */
export interface ToolhostAdapterOptions {
  /** The tools the model may see and call; default: every registered tool. */
  readonly grantedToolIds?: Iterable<ToolId>;
  /** Config-only values per tool id; merged last at dispatch and never shown to the model. */
  readonly toolConfig?: Readonly<Record<ToolId, Readonly<Record<string, unknown>>>>;
  readonly toolPolicy: ToolPolicy;
  /** Present ⇒ toolhost's interactive approval gate runs on governed calls. */
  readonly approval?: ToolApprovalContext;
  readonly limits?: ToolResultLimits;
  /** Feed recoverable failures back to the model instead of ending the turn. */
  readonly recoverToolFailures?: boolean;
  /** Rounds of fed-back failures per turn; default 3. */
  readonly maxCorrections?: number;
  /** Names the agent in events; default `agent`. */
  readonly nodeId?: string;
  /** Descriptive only: the host's own tier is what is enforced. Default `sandboxed`. */
  readonly fsScope?: FsScopeTier;
  readonly mediaScope?: string;
  readonly secretArgKeys?: ReadonlySet<string>;
  /** Source of the reported-content fence nonce; defaults to `globalThis.crypto`. */
  readonly randomNonce?: RandomNonce;
}

/** Adapter options with defaults filled and the grant checked against the registry. */
export interface ResolvedAdapterOptions {
  /** The granted tools, sorted by id: exactly what the model is shown. */
  readonly tools: readonly AnyToolDef[];
  readonly recoverToolFailures: boolean;
  readonly maxCorrections: number;
  readonly randomNonce: RandomNonce;
  /** The dispatch context of one call to `toolId`, under this adapter's grant and config. */
  contextFor(
    toolId: string,
    call?: { readonly signal?: AbortSignalLike; readonly approval?: ToolApprovalContext },
  ): ToolDispatchContext;
}

/** Fills defaults and rejects a grant or config naming an unregistered tool, at creation. */
export function resolveAdapterOptions(
  registry: Pick<LoopRegistry, 'get' | 'list'>,
  options: ToolhostAdapterOptions,
): ResolvedAdapterOptions {
  const {
    toolPolicy,
    maxCorrections = DEFAULT_MAX_CORRECTIONS,
    nodeId = 'agent',
    fsScope = 'sandboxed',
  } = options;
  const granted = new Set(options.grantedToolIds ?? registry.list());
  const tools = [...granted].sort(compareCodeUnits).map((id) => {
    const tool = registry.get(id);
    if (tool === undefined) throw new TypeError(`toolhost: granted tool ${id} is not registered`);
    return tool;
  });
  const config = new Map<ToolId, Readonly<Record<string, unknown>>>();
  for (const [id, parameters] of Object.entries(options.toolConfig ?? {})) {
    if (!granted.has(id)) throw new TypeError(`toolhost: toolConfig names ungranted tool ${id}`);
    config.set(id, Object.freeze({ ...parameters }));
  }
  if (!Number.isInteger(maxCorrections) || maxCorrections < 0) {
    throw new TypeError('toolhost: maxCorrections must be a non-negative integer');
  }
  const base = {
    nodeId,
    grantedToolIds: granted as ReadonlySet<ToolId>,
    toolPolicy,
    fsScope,
    // Adapters run agents, and an agent never holds the human gate (`git_commit`).
    gateApproved: false,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.mediaScope === undefined ? {} : { mediaScope: options.mediaScope }),
    ...(options.secretArgKeys === undefined ? {} : { secretArgKeys: options.secretArgKeys }),
  };
  return {
    tools,
    recoverToolFailures: options.recoverToolFailures ?? false,
    maxCorrections,
    randomNonce: options.randomNonce ?? defaultRandomNonce,
    contextFor(toolId, call = {}) {
      const parameters = config.get(toolId);
      const approval = call.approval ?? options.approval;
      return {
        ...base,
        config: parameters === undefined ? {} : { parameters },
        ...(approval === undefined ? {} : { approval }),
        ...(call.signal === undefined ? {} : { signal: call.signal }),
      };
    },
  };
}
