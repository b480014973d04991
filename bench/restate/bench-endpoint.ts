import * as restate from '@restatedev/restate-sdk';
import type { ToolDispatchContext } from '@toolhost/core';
import type { EffectJournal } from '@toolhost/core/journal';
import type { LoopToolCall } from '@toolhost/core/loop';

import {
  createToolRunObject,
  durableToolRegistry,
  type DurableSourceRegistry,
  type ToolRunModelRequest,
  type ToolRunModelTurn,
} from '@toolhost/restate';

/** What the bench's Restate handlers dispatch through: the same parts as the in-process rows. */
export interface BenchParts {
  readonly registry: DurableSourceRegistry;
  readonly journal: EffectJournal;
  readonly context: ToolDispatchContext;
}

/** The script a run's prompt carries: `calls` write_file calls, all in turn 0 or one a turn. */
export interface RunScript {
  readonly calls: number;
  readonly perTurn: boolean;
}

/** The `write_file` call the bench dispatches everywhere (a journaled side effect). */
export function writeCall(id: string): LoopToolCall {
  return { id, name: 'write_file', args: { path: 'out.txt', content: `${id}\n` } };
}

/**
 * The bench's handlers: `empty` (the ingress round trip alone), `noopStep` (one `ctx.run` step
 * that does nothing: Restate's own cost of a step), `dispatch` (one write_file as a
 * `durableToolRegistry` step), and the `toolhost-run` object driven by a scripted model.
 */
export function benchServices(parts: BenchParts) {
  const steps = restate.service({
    name: 'bench-step',
    handlers: {
      empty: async (_ctx: restate.Context): Promise<number> => 0,
      noopStep: async (ctx: restate.Context): Promise<number> => ctx.run('noop', () => 1),
      dispatch: async (ctx: restate.Context, callId: string): Promise<number> => {
        const registry = durableToolRegistry(ctx, {
          registry: parts.registry,
          journal: { store: parts.journal, runId: 'bench-step' },
          // The invocation id keeps the journal key unique per invocation, as the run object does.
          callKeyPrefix: `${ctx.request().id}.`,
        });
        await registry.dispatch(writeCall(callId), parts.context);
        return 1;
      },
    },
  });
  const runs = createToolRunObject({
    registry: parts.registry,
    journal: parts.journal,
    context: () => parts.context,
    model: async (request) => scriptedTurn(request),
  });
  return { steps, runs };
}

// A model that answers instantly from the script in the prompt, so the run's cost is the
// loop's and Restate's. A real model is one `await` here; its latency dwarfs both.
function scriptedTurn(request: ToolRunModelRequest): ToolRunModelTurn {
  const user = request.messages.find((message) => message.role === 'user');
  const first = user?.role === 'user' ? user.content[0] : undefined;
  const script = JSON.parse(first?.type === 'text' ? first.text : '{}') as RunScript;
  const call = (index: number): LoopToolCall => writeCall(`${request.runId}-${index}`);
  if (script.perTurn) {
    return request.turn < script.calls
      ? { toolCalls: [call(request.turn)] }
      : { text: `done after ${request.turn} turns` };
  }
  if (request.turn > 0) return { text: 'done after 1 turn' };
  return { toolCalls: Array.from({ length: script.calls }, (_, index) => call(index)) };
}
