import type { ToolDispatchContext } from '../dispatch-context.js';
import {
  refusedBeforeEffect,
  ToolCancelledError,
  ToolDispatchError,
  ToolExecutionError,
  withToolId,
} from '../errors.js';
import type { AnyToolDef } from '../tool-def.js';
import type { ToolHost } from '../tool-host.js';
import { throwIfAborted } from './abort.js';
import { guardRetention } from './guard-retention.js';

/** What the single host call needs. */
export interface CallHostInput {
  readonly tool: AnyToolDef;
  readonly args: unknown;
  readonly host: ToolHost;
  readonly ctx: ToolDispatchContext;
  /** The call is governed or has a side effect: its failure is never fed back for a retry. */
  readonly sideEffecting: boolean;
}

/**
 * Step 6: the one side effect. The host's promise is awaited to its real settlement (the host
 * owns the lifetime of what it started, through `ctx.signal`); then an abort wins over any
 * outcome, a typed denial passes through (stamped with this tool's id), and any other throw becomes a
 * `ToolExecutionError` that is recoverable only for an idempotent read.
 */
export function callHost({
  tool,
  args,
  host,
  ctx,
  sideEffecting,
}: CallHostInput): Promise<unknown> {
  const { signal } = ctx;
  // The tool has not been called: this cancel provably precedes its effect.
  if (signal?.aborted === true) {
    throw refusedBeforeEffect(new ToolCancelledError(tool.id, { cause: signal.reason }));
  }
  let pending: Promise<unknown>;
  const retention = guardRetention(ctx, tool.id);
  try {
    pending = tool.dispatch(args, host, retention.ctx);
  } catch (error) {
    pending = Promise.reject(error);
  }
  // A plain `then`, not another async frame: this sits on every dispatch's hot path.
  return pending.then(
    (result) => {
      // A success that lands after the abort is still a cancel: the run has already moved on.
      throwIfAborted(signal, tool.id);
      return result;
    },
    (error: unknown) => {
      throwIfAborted(signal, tool.id);
      // The runner refused to retain the work: its fixed marker, whatever the tool made of it.
      const refusal = retention.refusal();
      if (refusal !== undefined) throw refusal;
      if (error instanceof ToolDispatchError) throw withToolId(error, tool.id);
      throw new ToolExecutionError(tool.id, 'host_error', {
        cause: error,
        recoverable: !sideEffecting,
      });
    },
  );
}
