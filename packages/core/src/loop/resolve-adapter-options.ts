import type { AbortSignalLike } from '../abort-signal-like.js';
import type {
  FsScopeTier,
  ToolApprovalContext,
  ToolDispatchContext,
  ToolJournalContext,
  ToolPolicy,
  ToolResultLimits,
} from '../dispatch-context.js';
import { compareCodeUnits } from '../errors.js';
import type { AnyToolDef, ToolId } from '../tool-def.js';
import type { ToolHostCallOptions } from '../tool-host.js';
import { AdapterOptionsError } from './adapter-options-error.js';
import { DEFAULT_MAX_CORRECTIONS } from './correction-budget.js';
import type { LoopRegistry } from './loop-registry.js';
import { defaultRandomNonce, type RandomNonce } from './random-nonce.js';

/** The one options object every SDK adapter takes: the grant, per-tool config and the policy. */
export interface ToolhostAdapterOptions {
  /**
   * The tools the model may see and call. Required: the registry holding a tool is not a grant,
   * so registering another tool never widens what this agent may call.
   */
  readonly grantedToolIds: Iterable<ToolId>;
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
  /** The runner's trusted lifetime authority (`retainWork`), put on every dispatch's context. */
  readonly hostCallOptions?: ToolHostCallOptions;
  /** Synchronous trusted admission just before each host call; a throw refuses the call. */
  readonly beforeDispatch?: ToolDispatchContext['beforeDispatch'];
  /**
   * The durable effect journal, put on every dispatch's context: resume a conversation with the
   * same `runId` and its settled calls replay instead of repeating their effects.
   */
  readonly journal?: ToolJournalContext;
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

/**
 * Fills defaults and rejects, at creation, a grant or config naming an unregistered tool and a
 * grant of a tool whose host arm is missing.
 */
export function resolveAdapterOptions(
  registry: Pick<LoopRegistry, 'get' | 'missingHostArm'>,
  options: ToolhostAdapterOptions,
): ResolvedAdapterOptions {
  const {
    toolPolicy,
    maxCorrections = DEFAULT_MAX_CORRECTIONS,
    nodeId = 'agent',
    fsScope = 'sandboxed',
  } = options;
  const granted = grantOf(options.grantedToolIds);
  const tools = [...granted].sort(compareCodeUnits).map((id) => {
    const tool = registry.get(id);
    if (tool === undefined) throw new AdapterOptionsError('grant_not_registered', id);
    const arm = registry.missingHostArm?.(id);
    if (arm !== undefined) throw new AdapterOptionsError('host_arm_missing', id, arm);
    return tool;
  });
  const config = new Map<ToolId, Readonly<Record<string, unknown>>>();
  for (const [id, parameters] of Object.entries(options.toolConfig ?? {})) {
    if (!granted.has(id)) throw new AdapterOptionsError('config_not_granted', id);
    config.set(id, Object.freeze({ ...parameters }));
  }
  if (!Number.isInteger(maxCorrections) || maxCorrections < 0) {
    throw new AdapterOptionsError('max_corrections_invalid');
  }
  if (options.journal !== undefined && !isJournalContext(options.journal)) {
    throw new AdapterOptionsError('journal_invalid');
  }
  const base = {
    nodeId,
    grantedToolIds: granted,
    toolPolicy,
    fsScope,
    // Adapters run agents, and an agent never holds the human gate (`git_commit`).
    gateApproved: false,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.mediaScope === undefined ? {} : { mediaScope: options.mediaScope }),
    ...(options.secretArgKeys === undefined ? {} : { secretArgKeys: options.secretArgKeys }),
    ...(options.hostCallOptions === undefined ? {} : { hostCallOptions: options.hostCallOptions }),
    ...(options.beforeDispatch === undefined ? {} : { beforeDispatch: options.beforeDispatch }),
    ...(options.journal === undefined ? {} : { journal: options.journal }),
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

// A JS caller can leave the grant out or pass one id as a string (iterable, letter by letter):
// both are refused, so a missing grant never falls back to the whole registry.
function grantOf(grantedToolIds: Iterable<ToolId> | undefined): ReadonlySet<ToolId> {
  if (
    grantedToolIds === undefined ||
    grantedToolIds === null ||
    typeof grantedToolIds === 'string' ||
    typeof (grantedToolIds as Partial<Iterable<ToolId>>)[Symbol.iterator] !== 'function'
  ) {
    throw new AdapterOptionsError('grant_required');
  }
  return new Set(grantedToolIds);
}

// A JS caller can pass anything: a journal that cannot work is refused here, not mid-run.
function isJournalContext(journal: ToolJournalContext): boolean {
  if (typeof journal !== 'object' || journal === null) return false;
  const { store, runId, maxRecordBytes } = journal as Partial<ToolJournalContext>;
  const methods = ['lookup', 'prepare', 'settle', 'discard'] as const;
  return (
    typeof store === 'object' &&
    store !== null &&
    methods.every((method) => typeof store[method] === 'function') &&
    typeof runId === 'string' &&
    runId !== '' &&
    (maxRecordBytes === undefined || (Number.isSafeInteger(maxRecordBytes) && maxRecordBytes > 0))
  );
}
