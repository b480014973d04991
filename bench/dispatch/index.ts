import { z } from 'zod';

import {
  createToolRegistry,
  defineTool,
  type ToolDispatchContext,
  type ToolDispatchOutcome,
} from '@toolhost/core';
import { boundForModel } from '@toolhost/core/bound';
import type { FileRead, ToolOutputStore } from '@toolhost/core/host';
import { redactSecretShapedText } from '@toolhost/core/redact';
import { readFileTool } from '@toolhost/core/tools';

import type { BenchRow } from '../bench-row.js';
import { interleavedRows, sampleInterleaved, type Sample } from '../sample-interleaved.js';

// The engine's own costs: one dispatch of a trivial read-only tool against the floor (the same
// zod parse + a direct call), `read_file` with its events read against the same dispatch with
// them unread, bounding 1 MiB and 64 MiB results, and redaction throughput on ordinary text
// against adversarial text built to make a naive pattern backtrack. Every row is sampled
// interleaved (subject and baseline alternately, forwards and backwards): min and median.

const KIB = 1024;
const MIB = KIB * KIB;
const CONTEXT: ToolDispatchContext = {
  nodeId: 'bench',
  grantedToolIds: new Set(['read_thing', 'read_file']),
  config: {},
  toolPolicy: {},
  fsScope: 'sandboxed',
  gateApproved: false,
};

export async function run(): Promise<BenchRow[]> {
  return [
    ...(await dispatchRows()),
    ...(await eventRows()),
    ...(await boundRows()),
    ...(await redactionRows()),
  ];
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
  const call = { id: 'call-1', name: 'read_thing', args: { path: 'src/index.ts' } };
  // A batch per timed run: one µs-scale call is below what a single clock read resolves well.
  const samples = await sampleInterleaved(
    {
      dispatch: { run: batch(() => registry.dispatch(call, CONTEXT)) },
      floor: { run: batch(() => read(args.parse(call.args))) },
    },
    { iterations: 400, warmup: 100 },
  );
  return interleavedRows({
    label: 'dispatch',
    subject: 'registry.dispatch (read-only tool, whole pipeline)',
    baseline: 'floor: same zod parse + direct call',
    subjectSample: perCall(samples.dispatch),
    baselineSample: perCall(samples.floor),
    target: '< 2.5 µs',
  });
}

/**
 * `read_file` through the registry (a stub fs arm, so the row is the engine's own cost), its
 * events read the way the CLI reads them — `toolhost call --json` copies `call` and `result` by
 * name, the audit log spreads `result` — against the same dispatch with the events left unread.
 * A small file (the target) and a 4 KiB one: the summary scans its whole window (the first
 * 8 KiB) for secret shapes, so its cost grows with the result up to that window.
 */
async function eventRows(): Promise<BenchRow[]> {
  return [
    ...(await eventRow(
      'small file',
      'export const answer = 42;\nexport default answer;\n',
      '≤ 1.2x',
    )),
    ...(await eventRow('4 KiB', sourceText(4 * KIB), 'informational')),
  ];
}

async function eventRow(label: string, content: string, target: string): Promise<BenchRow[]> {
  const read: FileRead = {
    content,
    mimeType: 'text/plain',
    sizeBytes: content.length,
    lastModified: '2026-11-30T02:41:22.000Z',
  };
  const registry = createToolRegistry({
    tools: [readFileTool],
    host: { fs: { readFile: async () => read, listDirectory: unreachable } },
  });
  const call = { id: 'call-1', name: 'read_file', args: { path: 'src/index.ts' } };
  let sink = 0;
  const readEvents = (outcome: ToolDispatchOutcome): void => {
    const copied = { call: outcome.events.call, result: outcome.events.result };
    const audited = { ...outcome.events.result };
    sink += copied.call.toolId.length + audited.outputSummary.length;
  };
  const samples = await sampleInterleaved(
    {
      read: { run: batch(async () => readEvents(await registry.dispatch(call, CONTEXT))) },
      unread: { run: batch(() => registry.dispatch(call, CONTEXT)) },
    },
    { iterations: 400, warmup: 100 },
  );
  if (sink === 0) throw new Error('bench: events were not read');
  return interleavedRows({
    label: `dispatch read_file ${label}, events read`,
    subject: `read_file dispatch (stub fs arm, ${label}) + events.call/result read`,
    baseline: 'the same dispatch, events unread',
    subjectSample: perCall(samples.read),
    baselineSample: perCall(samples.unread),
    target,
  });
}

async function boundRows(): Promise<BenchRow[]> {
  // Stands in for the Node store, which learns the byte length while writing the file.
  const store: ToolOutputStore = {
    spill: async (text) => ({ ref: '/run/spill/1.txt', byteLength: Buffer.byteLength(text) }),
  };
  const rows: BenchRow[] = [];
  for (const [label, size, iterations] of [
    ['1 MiB', MIB, 60],
    ['64 MiB', 64 * MIB, 6],
  ] as const) {
    const text = logText(size);
    const samples = await sampleInterleaved(
      {
        bound: { run: async () => void (await boundForModel(text, { store })) },
        scan: { run: async () => void Buffer.byteLength(text) },
      },
      { iterations, warmup: 2 },
    );
    rows.push(
      ...interleavedRows({
        label: 'dispatch',
        subject: `boundForModel, ${label} log text (spilled)`,
        baseline: 'Buffer.byteLength over the same text',
        subjectSample: samples.bound,
        baselineSample: samples.scan,
        target: label === '1 MiB' ? '< 2000 µs' : 'measured',
      }),
    );
  }
  return rows;
}

// Redaction is timed on 128 KiB slices and reported per MiB: on a loaded machine a whole-MiB
// run rarely gets an unpreempted time slice, which biased long (adversarial) runs upwards.
const SLICE = 128 * KIB;
const ADVERSARIAL: readonly (readonly [string, string])[] = [
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

async function redactionRows(): Promise<BenchRow[]> {
  const ordinary = logText(SLICE);
  const redact = (text: string) => async () => void redactSecretShapedText(text);
  const operations = {
    ordinary: { run: redact(ordinary) },
    scan: { run: async () => void ordinary.indexOf('\u0000') },
    ...Object.fromEntries(
      ADVERSARIAL.map(([label, unit]) => [
        label,
        { run: redact(unit.repeat(Math.ceil(SLICE / unit.length)).slice(0, SLICE)) },
      ]),
    ),
  };
  // One loop for every text, so load from other processes hits each alike.
  const samples: Record<string, Sample> = await sampleInterleaved(operations, {
    iterations: 60,
    warmup: 5,
  });
  const ordinarySample = perMib(samples['ordinary']);
  const rows = interleavedRows({
    label: 'dispatch',
    subject: `redactSecretShapedText per MiB, ordinary (${mibPerSecond(ordinarySample.minUs)} MiB/s)`,
    baseline: 'String#indexOf scan of the same text',
    subjectSample: ordinarySample,
    baselineSample: perMib(samples['scan']),
    target: '≥ 200 MiB/s',
  });
  for (const [label] of ADVERSARIAL) {
    const sample = perMib(samples[label]);
    rows.push(
      ...interleavedRows({
        label: 'dispatch',
        subject: `redact per MiB, ${label} (${mibPerSecond(sample.minUs)} MiB/s)`,
        baseline: 'redact per MiB, ordinary (interleaved)',
        subjectSample: sample,
        baselineSample: ordinarySample,
        target: label.startsWith('secret-dense') ? 'informational' : '≤ 2x',
      }),
    );
  }
  return rows;
}

async function unreachable(): Promise<never> {
  throw new Error('bench: not part of this row');
}

const BATCH = 50;

function batch(operation: () => Promise<unknown>): () => Promise<void> {
  return async () => {
    for (let index = 0; index < BATCH; index += 1) await operation();
  };
}

function perCall(sample: Sample): Sample {
  return scaled(sample, 1 / BATCH);
}

function perMib(sample: Sample | undefined): Sample {
  if (sample === undefined) throw new Error('bench: a redaction text was not sampled');
  return scaled(sample, MIB / SLICE);
}

function scaled({ medianUs, minUs, cpuMedianUs }: Sample, factor: number): Sample {
  return { medianUs: medianUs * factor, minUs: minUs * factor, cpuMedianUs: cpuMedianUs * factor };
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

// A source file as `read_file` returns one: indented code lines, no secrets.
function sourceText(size: number): string {
  const line = '  const resolved = await resolveInJail(root, request.path, { follow: false });\n';
  return line.repeat(Math.ceil(size / line.length)).slice(0, size);
}
