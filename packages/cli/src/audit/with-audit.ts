import {
  classifyToolError,
  ToolDispatchError,
  type AnyToolDef,
  type ToolDispatchContext,
  type ToolRegistry,
} from '@toolhost/core';
import { secretArgTopKeys } from '@toolhost/core/dispatch';
import { redactText } from '@toolhost/core/redact';
import { decidedBy } from '../approval/approval-decided-by.js';
import { shownToolId } from '../commands/shown-tool-id.js';
import type { AuditLog } from './audit-log.js';
import { boundAuditInput } from './bound-audit-input.js';

/** The longest decision reason the log keeps (a page's own deny reason is bounded the same). */
export const MAX_AUDIT_REASON_CHARS = 500;

/**
 * Wraps a registry so every dispatch writes `tool_call` before and `tool_result` after, whoever
 * calls it (`toolhost call` or an MCP client through `toolhost serve`), and `approval_decided`
 * once its approval gate answered (whichever gate the caller put in the context: the terminal's,
 * serve's elicitation or the control tower's page). Only secret-free data: the caller's
 * arguments minus config-only keys, each long string cut to its redacted start
 * (`boundAuditInput`; every string leaf is scrubbed again by the log), the engine's
 * result projection, a decision's outcome, decider and redacted reason, or a failure's code and
 * fixed reason.
 */
export function withAudit(registry: ToolRegistry, audit: AuditLog): ToolRegistry {
  return Object.freeze({
    get: (id: string) => registry.get(id),
    list: () => registry.list(),
    missingHostArm: (id: string) => registry.missingHostArm(id),
    // A preflight touches nothing, so there is nothing to audit.
    preflight: (call, ctx) => registry.preflight(call, ctx),
    dispatch: async (call, ctx) => {
      const toolId = shownToolId(registry, call.name);
      audit.write('tool_call', {
        toolId,
        toolInput: boundAuditInput(
          projectInput(call.args, registry.get(call.name), ctx.secretArgKeys),
        ),
      });
      try {
        const outcome = await registry.dispatch(call, auditApproval(ctx, toolId, audit));
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

// The gate the caller chose, observed: what it decided is written the moment it decided.
function auditApproval(
  ctx: ToolDispatchContext,
  toolId: string,
  audit: AuditLog,
): ToolDispatchContext {
  const confirm = ctx.approval?.confirm;
  if (ctx.approval === undefined || confirm === undefined) return ctx;
  return {
    ...ctx,
    approval: {
      ...ctx.approval,
      confirm: async (request, signal) => {
        let decision;
        try {
          decision = await confirm(request, signal);
        } catch (error) {
          // The call was cancelled (or the gate broke) while waiting: nobody approved it.
          audit.write('approval_decided', { toolId, outcome: 'denied', by: 'cancelled' });
          throw error;
        }
        const reason = decision.outcome === 'reject' ? decision.reason : undefined;
        audit.write('approval_decided', {
          toolId,
          outcome: decision.outcome === 'approve' ? 'approved' : 'denied',
          by: decidedBy(decision),
          ...(typeof reason === 'string' ? { reason: auditReason(reason) } : {}),
        });
        return decision;
      },
    },
  };
}

// A person's "no, because …" is free text: redacted here, not only by the log's own scrub, and
// bounded so one reason cannot grow a line without limit.
function auditReason(reason: string): string {
  return Array.from(redactText(reason)).slice(0, MAX_AUDIT_REASON_CHARS).join('');
}

// The caller's arguments minus config-only keys (the pipeline ignores those from a caller) and
// secret-tainted keys: the pipeline refuses those, but only after this line is written. A nested
// entry (`content.value`) hides its top-level key, the whole value, as the pipeline taints it.
function projectInput(
  args: unknown,
  tool: AnyToolDef | undefined,
  secretArgKeys: ReadonlySet<string> | undefined,
): unknown {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return args ?? {};
  const hidden = new Set([...(tool?.configOnlyParams ?? []), ...secretArgTopKeys(secretArgKeys)]);
  return Object.fromEntries(Object.entries(args).filter(([key]) => !hidden.has(key)));
}

// A fixed, secret-free code when the error has one (`command_not_allowed`, `timed_out` …).
function reasonOf(error: ToolDispatchError): string | undefined {
  const reason: unknown = (error as { reason?: unknown }).reason;
  return typeof reason === 'string' ? reason : undefined;
}
