// The real registry over `tools` on a stub host, recording every call that reaches `dispatch`.
import { createToolRegistry } from '../../registry.js';
import type { AnyToolDef } from '../../tool-def.js';
import type { ToolHost } from '../../tool-host.js';
import type { LoopRegistry, LoopToolCall } from '../loop-registry.js';

/** A registry whose `calls` lists what was dispatched, in order. */
export function createRecordingRegistry(
  tools: readonly AnyToolDef[],
  host: ToolHost = {},
): LoopRegistry & { readonly calls: LoopToolCall[] } {
  const registry = createToolRegistry({ tools, host });
  const calls: LoopToolCall[] = [];
  return {
    calls,
    get: (id) => registry.get(id),
    list: () => registry.list(),
    // Not recorded: a preflight runs no host and reaches no dispatch.
    preflight: (call, ctx) => registry.preflight(call, ctx),
    dispatch: (call, ctx) => {
      calls.push(call);
      return registry.dispatch(call, ctx);
    },
  };
}
