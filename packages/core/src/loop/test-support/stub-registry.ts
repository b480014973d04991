// A stand-in for `createToolRegistry` in loop and adapter tests: the same outward contract
// (typed errors, grant, config-only merge, approval gate, media split, bounding, untrusted brand)
// in a few lines, so the loop is tested without depending on the pipeline's internals.
import type { ToolDispatchContext } from '../../dispatch-context.js';
import {
  ToolCancelledError,
  ToolDeniedByUserError,
  ToolDispatchError,
  ToolExecutionError,
  ToolPolicyError,
  UnknownToolError,
} from '../../errors.js';
import type { AnyToolDef } from '../../tool-def.js';
import type { DurableMediaPart, ToolHost } from '../../tool-host.js';
import { markUntrusted } from '../../untrusted.js';
import { splitMedia } from '../../with-media.js';
import { approvalActionClass } from '../approval-action-class.js';
import type { LoopDispatchOutcome, LoopRegistry, LoopToolCall } from '../loop-registry.js';

/** A registry over `tools` whose dispatch follows the seed's order on a stub host. */
export function createStubRegistry(
  tools: readonly AnyToolDef[],
  host: ToolHost = {},
): LoopRegistry & { readonly calls: LoopToolCall[] } {
  const byId = new Map(tools.map((tool) => [tool.id, tool]));
  const calls: LoopToolCall[] = [];
  return {
    calls,
    get: (id) => byId.get(id),
    list: () => [...byId.keys()].sort(),
    async dispatch(call, ctx) {
      calls.push(call);
      const tool = byId.get(call.name);
      if (tool === undefined) throw new UnknownToolError(call.name, [...byId.keys()]);
      if (!ctx.grantedToolIds.has(tool.id)) throw new ToolPolicyError(tool.id, 'not_granted');
      const args = tool.parseArgs({
        ...(call.args as Record<string, unknown>),
        ...ctx.config.parameters,
      });
      await approve(tool, ctx);
      try {
        const { result, parts } = splitMedia(await tool.dispatch(args, host, ctx));
        return outcome(call, bound(result, ctx), parts);
      } catch (error) {
        if (ctx.signal?.aborted === true) throw new ToolCancelledError(tool.id);
        if (error instanceof ToolDispatchError) throw error;
        throw new ToolExecutionError(tool.id, 'host_error', { cause: error });
      }
    },
  };
}

async function approve(tool: AnyToolDef, ctx: ToolDispatchContext): Promise<void> {
  const action = approvalActionClass(tool);
  if (ctx.approval === undefined || action === undefined) return;
  const { confirm } = ctx.approval;
  if (confirm === undefined) throw new ToolDeniedByUserError(tool.id, 'no_approval_hook');
  const decision = await confirm({ toolId: tool.id, action, preview: {} }, ctx.signal);
  if (ctx.signal?.aborted === true) throw new ToolCancelledError(tool.id);
  if (decision.outcome === 'reject') throw new ToolDeniedByUserError(tool.id, 'user_rejected');
}

function bound(result: unknown, ctx: ToolDispatchContext): unknown {
  const text = typeof result === 'string' ? result : JSON.stringify(result);
  const maxBytes = ctx.limits?.maxBytes ?? 51_200;
  if (text.length <= maxBytes) return result;
  return `${text.slice(0, maxBytes)}\n[… truncated: ${text.length} bytes; full output unavailable (stub)]`;
}

function outcome(
  call: LoopToolCall,
  result: unknown,
  parts: readonly DurableMediaPart[] | undefined,
): LoopDispatchOutcome {
  const toolResult = markUntrusted({ type: 'tool_result' as const, toolCallId: call.id, result });
  if (parts === undefined) return { toolResult };
  return { toolResult, mediaAttachments: markUntrusted(parts) };
}
