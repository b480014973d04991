import {
  classifyToolError,
  ToolDispatchError,
  type AnyToolDef,
  type ToolRegistry,
} from '@toolhost/core';
import { safeToolName } from '../commands/safe-tool-name.js';
import type { AuditLog } from './audit-log.js';

/**
 * Wraps a registry so every dispatch writes `tool_call` before and `tool_result` after, whoever
 * calls it (`toolhost call` or an MCP client through `toolhost serve`). Only secret-free data:
 * the caller's arguments minus config-only keys (string leaves are scrubbed again by the log),
 * the engine's result projection, or a failure's code and fixed reason.
 */
export function withAudit(registry: ToolRegistry, audit: AuditLog): ToolRegistry {
  return Object.freeze({
    get: (id: string) => registry.get(id),
    list: () => registry.list(),
    // A preflight touches nothing, so there is nothing to audit.
    preflight: (call, ctx) => registry.preflight(call, ctx),
    dispatch: async (call, ctx) => {
      const toolId = safeToolName(call.name);
      audit.write('tool_call', {
        toolId,
        toolInput: projectInput(call.args, registry.get(call.name), ctx.secretArgKeys),
      });
      try {
        const outcome = await registry.dispatch(call, ctx);
        audit.write('tool_result', { ...outcome.events.result });
        return outcome;
      } catch (error) {
        const cancelled = ctx.signal?.aborted === true || classifyToolError(error) === 'cancelled';
        const code = cancelled
          ? 'cancelled'
          : error instanceof ToolDispatchError
            ? error.code
            : 'internal';
        const reason = error instanceof ToolDispatchError ? reasonOf(error) : undefined;
        audit.write('tool_result', {
          toolId,
          success: false,
          errorCode: code,
          ...(reason === undefined ? {} : { reason }),
        });
        throw error;
      }
    },
  } satisfies ToolRegistry);
}

// The caller's arguments minus config-only keys (the pipeline ignores those from a caller) and
// secret-tainted keys: the pipeline refuses those, but only after this line is written.
function projectInput(
  args: unknown,
  tool: AnyToolDef | undefined,
  secretArgKeys: ReadonlySet<string> | undefined,
): unknown {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return args ?? {};
  const hidden = new Set([...(tool?.configOnlyParams ?? []), ...(secretArgKeys ?? [])]);
  return Object.fromEntries(Object.entries(args).filter(([key]) => !hidden.has(key)));
}

// A fixed, secret-free code when the error has one (`command_not_allowed`, `timed_out` …).
function reasonOf(error: ToolDispatchError): string | undefined {
  const reason: unknown = (error as { reason?: unknown }).reason;
  return typeof reason === 'string' ? reason : undefined;
}
