import { z } from 'zod';

import {
  boundForModel,
  createToolRegistry,
  defineTool,
  redactSecretShapedText,
  type ToolDispatchContext,
  type ToolOutputStore,
} from '@toolhost/core';

import { measureUs, type BenchRow } from '../bench-row.js';

// The engine's own costs: one dispatch of a trivial read-only tool against the floor (the same
// zod parse + a direct call), bounding 1 MiB and 64 MiB results, and redaction throughput on
// ordinary text against adversarial text built to make a naive pattern backtrack.

const MIB = 1024 * 1024;

export async function run(): Promise<BenchRow[]> {
  return [...(await dispatchRows()), ...(await boundRows()), ...redactionRows()];
}

async function dispatchRows(): Promise<BenchRow[]> {
  const args = z.strictObject({ path: z.string(), limit: z.number().optional() });
  const read = async (input: {
    path: string;
  }): Promise<{ content: string; sizeBytes: number }> => ({
    content: `contents of ${input.path}`,
    sizeBytes: 20,
  });
  const tool = defineTool({
    id: 'read_thing',
    description: 'a trivial read-only tool',
    args,
    policy: { fsScoped: true, spawnsProcess: false, requiresGateApproval: false },
    policyTarget: (input) => ({ path: input.path }),
    dispatch: (input) => read(input),
  });
  const registry = createToolRegistry({ tools: [tool], host: {} });
  const ctx: ToolDispatchContext = {
    nodeId: 'bench',
    grantedToolIds: new Set(['read_thing']),
    config: {},
    toolPolicy: {},
    fsScope: 'sandboxed',
    gateApproved: false,
  };
  const call = { id: 'call-1', name: 'read_thing', args: { path: 'src/index.ts' } };
  // Interleaved rounds, fastest of each: other processes on a shared machine slow both alike.
  let floorUs = Number.POSITIVE_INFINITY;
  let dispatchUs = Number.POSITIVE_INFINITY;
  // Short rounds (~2 ms) so some of them run unpreempted on a loaded machine.
  for (let round = 0; round < 60; round += 1) {
    const options = { iterations: 2_000, rounds: 1, warmup: round === 0 ? 20_000 : 0 };
    floorUs = Math.min(floorUs, await measureUs(() => read(args.parse(call.args)), options));
    dispatchUs = Math.min(dispatchUs, await measureUs(() => registry.dispatch(call, ctx), options));
  }
  return [
    {
      name: 'dispatch',
      subject: 'registry.dispatch (read-only tool, whole pipeline)',
      baseline: 'floor: same zod parse + direct call',
      subjectUs: dispatchUs,
      baselineUs: floorUs,
      ratio: dispatchUs / floorUs,
      target: '< 2.5 µs',
    },
  ];
}

async function boundRows(): Promise<BenchRow[]> {
  // Stands in for the Node store, which learns the byte length while writing the file.
  const store: ToolOutputStore = {
    spill: async (text) => ({ ref: '/run/spill/1.txt', byteLength: Buffer.byteLength(text) }),
  };
  const rows: BenchRow[] = [];
  for (const [label, size, iterations, rounds] of [
    ['1 MiB', MIB, 2, 40],
    ['64 MiB', 64 * MIB, 1, 8],
  ] as const) {
    const text = logText(size);
    let boundUs = Number.POSITIVE_INFINITY;
    let scanUs = Number.POSITIVE_INFINITY;
    for (let round = 0; round < rounds; round += 1) {
      const options = { iterations, rounds: 1, warmup: round === 0 ? 3 : 0 };
      boundUs = Math.min(boundUs, await measureUs(() => boundForModel(text, { store }), options));
      scanUs = Math.min(scanUs, await measureUs(async () => Buffer.byteLength(text), options));
    }
    rows.push({
      name: 'dispatch',
      subject: `boundForModel, ${label} log text (spilled)`,
      baseline: 'Buffer.byteLength over the same text',
      subjectUs: boundUs,
      baselineUs: scanUs,
      ratio: boundUs / scanUs,
      target: label === '1 MiB' ? '< 2000 µs' : 'measured',
    });
  }
  return rows;
}

// Redaction is timed on 128 KiB slices and reported per MiB: on a loaded machine a whole-MiB
// run rarely gets an unpreempted time slice, which biased long (adversarial) runs upwards.
const SLICE = 128 * 1024;

function redactionRows(): BenchRow[] {
  const ordinary = logText(SLICE);
  const ordinaryUs = perMib(fastestUs(() => redactSecretShapedText(ordinary), 40));
  const scanUs = perMib(fastestUs(() => ordinary.indexOf('\u0000'), 40));
  const rows: BenchRow[] = [
    {
      name: 'dispatch',
      subject: `redactSecretShapedText per MiB, ordinary (${mibPerSecond(ordinaryUs)} MiB/s)`,
      baseline: 'String#indexOf scan of the same text',
      subjectUs: ordinaryUs,
      baselineUs: scanUs,
      ratio: ordinaryUs / scanUs,
      target: '≥ 200 MiB/s',
    },
  ];
  const adversarial: readonly (readonly [string, string])[] = [
    ['sk-sk-sk- run', 'sk-'],
    ['aaaa… run', 'a'],
    ['Bearer Bearer …', 'Bearer '],
    ['-----BEGIN without END', '-----BEGIN PRIVATE KEY-----\n'],
    ['eyJeyJ… (JWT prefix)', 'eyJ'],
    ['://a:b://a:b… (userinfo)', '://a:b'],
    ['passwordtoken… (keywords)', 'passwordtoken'],
    ['mixed adversarial', 'sk-sk-aaaaaaaa Bearer Bearer eyJeyJ ://x:y passwordtoken '],
    ['secret-dense: password="… every 10 chars', 'password="'],
  ];
  for (const [label, unit] of adversarial) {
    const text = unit.repeat(Math.ceil(SLICE / unit.length)).slice(0, SLICE);
    // Interleaved with the ordinary run, so load from other processes hits both alike.
    const [sliceUs, againstSliceUs] = fastestPairUs(
      () => redactSecretShapedText(text),
      () => redactSecretShapedText(ordinary),
      40,
    );
    const us = perMib(sliceUs);
    const againstUs = perMib(againstSliceUs);
    rows.push({
      name: 'dispatch',
      subject: `redact per MiB, ${label} (${mibPerSecond(us)} MiB/s)`,
      baseline: 'redact per MiB, ordinary (interleaved)',
      subjectUs: us,
      baselineUs: againstUs,
      ratio: us / againstUs,
      target: label.startsWith('secret-dense') ? 'informational' : '≤ 3x',
    });
  }
  return rows;
}

// The fastest of several rounds, in microseconds: on a shared machine the minimum is the
// measurement least disturbed by other processes.
function fastestUs(operation: () => unknown, rounds = 15): number {
  for (let index = 0; index < 3; index += 1) operation();
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round += 1) {
    const start = process.hrtime.bigint();
    operation();
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1000);
  }
  return best;
}

function fastestPairUs(
  subject: () => unknown,
  baseline: () => unknown,
  rounds = 15,
): [number, number] {
  let subjectBest = Number.POSITIVE_INFINITY;
  let baselineBest = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds + 3; round += 1) {
    const subjectUs = fastestUs(subject, 1);
    const baselineUs = fastestUs(baseline, 1);
    if (round < 3) continue;
    subjectBest = Math.min(subjectBest, subjectUs);
    baselineBest = Math.min(baselineBest, baselineUs);
  }
  return [subjectBest, baselineBest];
}

function perMib(sliceUs: number): number {
  return (sliceUs * MIB) / SLICE;
}

function mibPerSecond(microseconds: number): string {
  return (1_000_000 / microseconds).toFixed(0);
}

// Tool-output-like text: log lines with paths, hashes, ids, URLs and numbers, no secrets.
function logText(size: number): string {
  const line =
    '2026-11-30T02:41:22Z INFO build step 14/20 compiled src/dispatch/enforce-policy.ts in 12ms ' +
    '(commit 3f786850e387550fdab836ed7e6dc881de23001b, request 123e4567-e89b-12d3-a456-426614174000) ' +
    'see https://example.com/docs/build?page=2 for details; 10.0.3.7:5432 ok\n';
  return line.repeat(Math.ceil(size / line.length)).slice(0, size);
}
