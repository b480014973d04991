import { z } from 'zod';

import {
  createCorrectionBudget,
  createToolRegistry,
  defineTool,
  runToolCalls,
  type ToolDispatchContext,
} from '@toolhost/core';

import type { BenchRow } from '../bench-row.js';
import { interleavedRows, sampleInterleaved, type Sample } from '../sample-interleaved.js';

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
  const loop = async () =>
    void (await runToolCalls(calls, { registry, ctx, budget: createCorrectionBudget() }));
  // Sampled interleaved (subject and baseline alternately, forwards and backwards), a batch of
  // responses per timed run: one ~15 µs response is below what a single clock read resolves well.
  const samples = await sampleInterleaved(
    { loop: { run: batch(loop) }, direct: { run: batch(direct) } },
    { iterations: 400, warmup: 50 },
  );
  return interleavedRows({
    label: 'tool-loop',
    subject: 'runToolCalls, one response of 5 calls',
    baseline: 'the same 5 registry.dispatch calls',
    subjectSample: perResponse(samples.loop),
    baselineSample: perResponse(samples.direct),
    target: '≤ 1.3x',
  });
}

const BATCH = 20;

function batch(operation: () => Promise<void>): () => Promise<void> {
  return async () => {
    for (let index = 0; index < BATCH; index += 1) await operation();
  };
}

function perResponse({ medianUs, minUs, cpuMedianUs }: Sample): Sample {
  return { medianUs: medianUs / BATCH, minUs: minUs / BATCH, cpuMedianUs: cpuMedianUs / BATCH };
}
