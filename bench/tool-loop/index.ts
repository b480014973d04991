import { z } from 'zod';

import {
  createCorrectionBudget,
  createToolRegistry,
  defineTool,
  runToolCalls,
  type ToolDispatchContext,
} from '@toolhost/core';

import { measureUs, type BenchRow } from '../bench-row.js';

// What the reference loop adds on top of the registry: one model response of five calls through
// `runToolCalls` (ladder, branding, result parts) against the same five `registry.dispatch` calls.

export async function run(): Promise<BenchRow[]> {
  const tool = defineTool({
    id: 'lookup',
    description: 'a trivial read-only tool',
    args: z.strictObject({ key: z.string() }),
    policy: { fsScoped: false, spawnsProcess: false, requiresGateApproval: false },
    dispatch: async ({ key }) => ({ key, value: 42 }),
  });
  const registry = createToolRegistry({ tools: [tool], host: {} });
  const ctx: ToolDispatchContext = {
    nodeId: 'bench',
    grantedToolIds: new Set(['lookup']),
    config: {},
    toolPolicy: {},
    fsScope: 'sandboxed',
    gateApproved: false,
  };
  const calls = Array.from({ length: 5 }, (_, index) => ({
    id: `call-${index}`,
    name: 'lookup',
    args: { key: `k${index}` },
  }));
  const direct = async () => {
    for (const call of calls) await registry.dispatch(call, ctx);
  };
  const loop = () => runToolCalls(calls, { registry, ctx, budget: createCorrectionBudget() });
  let directUs = Number.POSITIVE_INFINITY;
  let loopUs = Number.POSITIVE_INFINITY;
  // Interleaved rounds, fastest of each: other processes on a shared machine slow both alike.
  for (let round = 0; round < 20; round += 1) {
    const options = { iterations: 2_000, rounds: 1, warmup: round === 0 ? 4_000 : 0 };
    directUs = Math.min(directUs, await measureUs(direct, options));
    loopUs = Math.min(loopUs, await measureUs(loop, options));
  }
  return [
    {
      name: 'tool-loop',
      subject: 'runToolCalls, one response of 5 calls',
      baseline: 'the same 5 registry.dispatch calls',
      subjectUs: loopUs,
      baselineUs: directUs,
      ratio: loopUs / directUs,
      target: '≤ 1.3x',
    },
  ];
}
