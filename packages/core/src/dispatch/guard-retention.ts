import type { ToolDispatchContext } from '../dispatch-context.js';
import { ToolDispatchError } from '../errors.js';
import type { ToolId } from '../tool-def.js';
import type { ToolHostCallOptions } from '../tool-host.js';

/**
 * The fixed marker a host retention refusal crosses the registry as: the runner's `retainWork`
 * refused (before entry, or after it with the work still owned). Fatal and never retried: a
 * refusal does not authorize fresh I/O. The runner's own opaque value is kept apart, in private
 * identity storage, and restored by `restoreRetentionRefusal`.
 */
export class HostRetentionRefusedError extends ToolDispatchError {
  readonly code = 'tool_failed';
  readonly runErrorCode = 'tool_failed';
  override readonly name = 'HostRetentionRefusedError';
  override readonly toolId: ToolId;

  constructor(toolId: ToolId) {
    super(`tool ${toolId} failed: host_retention_refused`, toolId);
    this.toolId = toolId;
  }
}

// Marker → the runner's original value. Never on the marker: not reflected, logged or serialized.
const originals = new WeakMap<HostRetentionRefusedError, { readonly value: unknown }>();

/** One call's view of the runner's retainer: the context to dispatch with and its refusal. */
export interface RetentionGuard {
  readonly ctx: ToolDispatchContext;
  /** The marker of a refusal seen during this call, or `undefined`. */
  refusal(): HostRetentionRefusedError | undefined;
}

/**
 * Wraps `ctx.hostCallOptions.retainWork` for one call so a refusal is told apart from the tool's
 * own failure: a rejection that is not the factory's own fault (identity, not shape) is a refusal.
 */
export function guardRetention(ctx: ToolDispatchContext, toolId: ToolId): RetentionGuard {
  const retainWork = ctx.hostCallOptions?.retainWork;
  if (retainWork === undefined) return { ctx, refusal: noRefusal };
  let marker: HostRetentionRefusedError | undefined;
  const hostCallOptions: ToolHostCallOptions = {
    ...ctx.hostCallOptions,
    retainWork: <T>(factory: () => Promise<T>): Promise<T> => {
      // Genuine factory faults, sync or async, keep their ordinary classification.
      const faults = new Set<unknown>();
      const owned = (): Promise<T> => {
        try {
          return factory().catch((error: unknown) => {
            faults.add(error);
            throw error;
          });
        } catch (error) {
          faults.add(error);
          throw error;
        }
      };
      let retained: Promise<T>;
      try {
        retained = retainWork(owned);
      } catch (error) {
        retained = Promise.reject(error);
      }
      return retained.catch((error: unknown) => {
        if (faults.has(error)) throw error;
        marker ??= new HostRetentionRefusedError(toolId);
        if (!originals.has(marker)) originals.set(marker, { value: error });
        throw marker;
      });
    },
  };
  return { ctx: { ...ctx, hostCallOptions }, refusal: () => marker };
}

// Shared: the common call without a retainer allocates nothing here (dispatch's hot path).
function noRefusal(): undefined {
  return undefined;
}

/** The runner's own refusal value behind a marker; any other error comes back unchanged. */
export function restoreRetentionRefusal(error: unknown): unknown {
  if (!(error instanceof HostRetentionRefusedError)) return error;
  const original = originals.get(error);
  return original === undefined ? error : original.value;
}
